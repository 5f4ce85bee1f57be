//! Saving the scoresheet on request (`save`, `save to FILE`) and what
//! became of it.

use super::super::App;
use crate::msg::Effect;
use crate::scoresheet::ExportFormat;
use crate::speech::{Priority, SayKind};

impl App {
    /// `save [FORMAT]`: the scoresheet as a file.
    pub(in crate::app) fn save(&mut self, format: Option<ExportFormat>, out: &mut Vec<Effect>) {
        let format = format.unwrap_or(ExportFormat::Pgn);
        if !self.parts.journal.sheet.as_ref().is_some_and(|s| s.begun) {
            let t = self.message("save_nothing", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        out.push(Effect::Export(format));
    }

    /// `save FILE`: the scoresheet in that file, its format by its ending.
    pub(in crate::app) fn save_to(&mut self, file: &str, out: &mut Vec<Effect>) {
        if !self.parts.journal.sheet.as_ref().is_some_and(|s| s.begun) {
            let t = self.message("save_nothing", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let lower = file.to_ascii_lowercase();
        let format = ExportFormat::ALL
            .into_iter()
            .filter(|f| lower.ends_with(&format!(".{}", f.extension())))
            .max_by_key(|f| f.extension().len())
            .unwrap_or(ExportFormat::Pgn);
        out.push(Effect::ExportTo(format, std::path::PathBuf::from(file)));
    }

    /// The scoresheet was written, or not.
    pub(in crate::app) fn on_exported(
        &mut self,
        result: Result<std::path::PathBuf, crate::msg::SaveFailure>,
        out: &mut Vec<Effect>,
    ) {
        match result {
            Ok(path) => {
                let t = self.message("saved", &[("path", &path.display().to_string())]);
                self.info(out, t);
            }
            Err(failure) => {
                use crate::msg::SaveFailure;
                let t = match failure {
                    SaveFailure::NothingToSave => self.message("save_nothing", &[]),
                    SaveFailure::NotWritable(folder) => self.message(
                        "save_not_writable",
                        &[("path", &folder.display().to_string())],
                    ),
                    SaveFailure::DiskFull => self.message("save_disk_full", &[]),
                    SaveFailure::IsJournal(p) => {
                        self.message("export_is_journal", &[("path", &p.display().to_string())])
                    }
                    SaveFailure::Other(why) => self.message("save_failed", &[("why", &why)]),
                };
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }
}
