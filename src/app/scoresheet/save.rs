//! Saving the scoresheet on request (`save`, `save to FILE`) and what
//! became of it.

use super::super::voice::Voice;
use super::Journal;
use crate::msg::{Effect, SaveFailure};
use crate::scoresheet::ExportFormat;

impl Journal {
    /// `save [FORMAT]`: the scoresheet as a file (PGN when none is named).
    pub(in crate::app) fn save(&self, format: Option<ExportFormat>, v: &mut Voice<'_>) {
        if self.begun_sheet().is_none() {
            return v.error("save_nothing", &[]);
        }
        v.effect(Effect::Export(format.unwrap_or(ExportFormat::Pgn)));
    }

    /// `save FILE`: the scoresheet in that file, its format by its ending.
    pub(in crate::app) fn save_to(&self, file: &str, v: &mut Voice<'_>) {
        if self.begun_sheet().is_none() {
            return v.error("save_nothing", &[]);
        }
        let lower = file.to_ascii_lowercase();
        let format = ExportFormat::ALL
            .into_iter()
            .filter(|f| lower.ends_with(&format!(".{}", f.extension())))
            .max_by_key(|f| f.extension().len())
            .unwrap_or(ExportFormat::Pgn);
        v.effect(Effect::ExportTo(format, std::path::PathBuf::from(file)));
    }
}

/// The scoresheet was written, or not: said.
pub(in crate::app) fn say_exported(
    result: Result<std::path::PathBuf, SaveFailure>,
    v: &mut Voice<'_>,
) {
    match result {
        Ok(path) => {
            let t = v.text("saved", &[("path", &path.display().to_string())]);
            v.info(t);
        }
        Err(failure) => {
            let (key, arg) = match failure {
                SaveFailure::NothingToSave => ("save_nothing", None),
                SaveFailure::NotWritable(folder) => (
                    "save_not_writable",
                    Some(("path", folder.display().to_string())),
                ),
                SaveFailure::DiskFull => ("save_disk_full", None),
                SaveFailure::IsJournal(p) => {
                    ("export_is_journal", Some(("path", p.display().to_string())))
                }
                SaveFailure::Other(why) => ("save_failed", Some(("why", why))),
            };
            match &arg {
                Some((k, a)) => v.error(key, &[(k, a.as_str())]),
                None => v.error(key, &[]),
            }
        }
    }
}
