//! Line mode: the front end for screen readers and braille displays.
//!
//! Every announcement is printed as one line as it happens; a line typed
//! and confirmed with Enter is a move or a command.  Standard input may be
//! a pipe (a script of moves and commands): the end of input ends the
//! session cleanly.  The prompt (whose move, the move number) is printed
//! when standard input is a terminal, or always with `--prompt always`.

use std::io::{BufRead, IsTerminal, StdoutLock, Write};

use crate::app::App;
use crate::msg::Msg;
use crate::runtime::{Feed, FrontEnd, Outputs, Wake};
use crate::setup::PromptMode;
use crate::speech::Utterance;

/// Line mode as a front end of the runtime: standard input read line by
/// line on its own thread, every sentence printed as one line.
pub struct Line {
    out: StdoutLock<'static>,
    show_prompt: bool,
    /// The prompt is on screen and the player has not pressed Enter since:
    /// a sentence that arrives now (the board, speech) starts a new line.
    prompt_open: bool,
    /// Something was said since the last prompt: show it again.
    prompt_due: bool,
}

impl Line {
    /// Line mode on standard output, the prompt shown as `prompt` says.
    pub fn new(prompt: PromptMode) -> Line {
        let show_prompt = match prompt {
            PromptMode::Auto => std::io::stdin().is_terminal(),
            PromptMode::Always => true,
            PromptMode::Never => false,
        };
        Line {
            out: std::io::stdout().lock(),
            show_prompt,
            prompt_open: false,
            prompt_due: true,
        }
    }
}

impl FrontEnd for Line {
    /// The reader of standard input sends the typed lines into the loop,
    /// then the end of input.
    fn start(&mut self, feed: &Feed) -> std::io::Result<()> {
        let feed = feed.clone();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut stdin = stdin.lock();
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Invalid UTF-8 is read lossily: the rest of the line
                        // is kept, not dropped.
                        let line = String::from_utf8_lossy(&bytes);
                        let line = line.trim_end_matches(['\n', '\r']).to_owned();
                        if !feed.send(Msg::Line(line)) {
                            return;
                        }
                    }
                }
            }
            feed.send(Msg::EndOfInput);
        });
        Ok(())
    }

    fn said(&mut self, u: &Utterance, _app: &App) -> std::io::Result<()> {
        if self.prompt_open {
            writeln!(self.out)?;
            self.prompt_open = false;
        }
        writeln!(self.out, "{}", u.text)?;
        self.prompt_due = true;
        Ok(())
    }

    fn show(&mut self, app: &App) -> std::io::Result<()> {
        if self.show_prompt && self.prompt_due {
            write!(self.out, "{} > ", app.prompt())?;
            self.prompt_open = true;
            self.prompt_due = false;
        }
        self.out.flush()
    }

    fn take(&mut self, wake: Wake, _app: &App, _outputs: &Outputs) -> Option<Msg> {
        match wake {
            Wake::App(msg) => {
                if let Msg::Line(_) = msg {
                    // The terminal echoed the Enter: the cursor is on a new
                    // line, and the player expects a prompt after the answer.
                    self.prompt_open = false;
                    self.prompt_due = true;
                }
                Some(msg)
            }
            Wake::Terminal(_) | Wake::Tick => None,
        }
    }

    fn quit(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
