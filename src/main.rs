fn main() {
    println!("hector: under construction");
}
