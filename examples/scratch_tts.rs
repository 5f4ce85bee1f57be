use std::sync::mpsc;
use std::time::Instant;
fn main() {
    let t = Instant::now();
    let mut tts = tts::Tts::default().unwrap();
    println!("open {:?}", t.elapsed());
    println!("features {:?}", tts.supported_features());
    let (tx, rx) = mpsc::channel();
    let tx2 = tx.clone();
    tts.on_utterance_begin(Some(Box::new(move |id| {
        let _ = tx.send(("begin", format!("{id}"), Instant::now()));
    })))
    .unwrap();
    tts.on_utterance_end(Some(Box::new(move |id| {
        let _ = tx2.send(("end", format!("{id}"), Instant::now()));
    })))
    .unwrap();
    let t = Instant::now();
    let voices = tts.voices().unwrap();
    println!("voices {} in {:?}", voices.len(), t.elapsed());
    for v in voices
        .iter()
        .filter(|v| v.language().as_str().starts_with("de"))
        .take(3)
    {
        println!("  {} {} {}", v.id(), v.name(), v.language());
    }
    let de = voices
        .iter()
        .find(|v| v.name() == "German")
        .unwrap()
        .clone();
    let en = voices
        .iter()
        .find(|v| v.language().as_str().starts_with("en"))
        .unwrap()
        .clone();
    println!("en = {}", en.name());
    for i in 0..3 {
        let t = Instant::now();
        tts.set_voice(if i % 2 == 0 { &de } else { &en }).unwrap();
        println!("set_voice {:?}", t.elapsed());
        let t = Instant::now();
        let id = tts.speak("Springer Felix drei", false).unwrap();
        let t1 = t.elapsed();
        while let Ok((what, id2, at)) = rx.recv_timeout(std::time::Duration::from_secs(5)) {
            println!(
                "speak returned {:?} id {:?}; {what} {id2} at {:?}",
                t1,
                id,
                at - t
            );
            if what == "end" {
                break;
            }
        }
    }
}
