//! Windows: the screen readers' clients and the order hector speaks in.
//!
//! 1. NVDA, through its controller client DLL (`nvdaControllerClient64.dll`
//!    or `nvdaControllerClient.dll`, beside `hector.exe`), loaded at run time:
//!    no DLL, no NVDA route, nothing else is missed.
//! 2. JAWS, through its COM object `FreedomSci.JawsApi` (`SayString`,
//!    `StopSpeech`), when its window (`JFWUI2`) is there.
//! 3. The OneCore voices through the `tts` crate.
//!
//! (Tolk, which does all of this in C++, does not compile under mingw-w64.)

use std::os::windows::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use windows::Win32::Foundation::{FreeLibrary, HMODULE, HWND};
use windows::Win32::System::Com::{
    CLSCTX_ALL, CLSIDFromProgID, COINIT_APARTMENTTHREADED, CoCreateInstance, CoInitializeEx,
    DISPATCH_METHOD, DISPPARAMS, IDispatch,
};
use windows::Win32::System::LibraryLoader::{GetProcAddress, LoadLibraryW};
use windows::core::{BSTR, GUID, PCSTR, PCWSTR, VARIANT, s, w};

use super::backend::{BackendFactory, EventSink, SpeechBackend, SpeechError};
use super::screen_reader::{ScreenReader, open_in_order};

/// The speech backend of Windows: the first running screen reader, else the
/// OneCore voices.
pub fn factory() -> BackendFactory {
    Arc::new(|sink: EventSink| open_in_order(readers(), || tts_voices(sink)))
}

/// The screen readers hector can speak through, in order of preference.
pub fn readers() -> Vec<Box<dyn ScreenReader>> {
    let mut found: Vec<Box<dyn ScreenReader>> = Vec::new();
    if let Some(nvda) = beside_exe().and_then(|dir| Nvda::load(&dir)) {
        found.push(Box::new(nvda));
    }
    if let Some(jaws) = Jaws::open() {
        found.push(Box::new(jaws));
    }
    found
}

fn tts_voices(sink: EventSink) -> Result<Box<dyn SpeechBackend>, SpeechError> {
    super::tts_backend::TtsBackend::open(sink).map(|b| Box::new(b) as Box<dyn SpeechBackend>)
}

/// The folder of `hector.exe`, where its DLLs are looked for (never the
/// current folder: a DLL planted there would run inside hector).
fn beside_exe() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
}

fn wide(s: &std::ffi::OsStr) -> Vec<u16> {
    s.encode_wide().chain(Some(0)).collect()
}

fn wide_str(s: &str) -> Vec<u16> {
    s.encode_utf16()
        .filter(|&c| c != 0)
        .chain(Some(0))
        .collect()
}

/// The DLL names of NVDA's controller client, 64-bit, newest first.
pub const NVDA_DLLS: [&str; 2] = ["nvdaControllerClient.dll", "nvdaControllerClient64.dll"];

type NoArg = unsafe extern "system" fn() -> u32;
type TextArg = unsafe extern "system" fn(*const u16) -> u32;

/// NVDA's controller client, loaded from a DLL.
pub struct Nvda {
    module: HMODULE,
    test_if_running: NoArg,
    speak_text: TextArg,
    cancel_speech: NoArg,
    braille_message: Option<TextArg>,
}

impl Nvda {
    /// The client in `dir`, if one of [`NVDA_DLLS`] is there and has the
    /// functions of the controller client.
    pub fn load(dir: &Path) -> Option<Nvda> {
        NVDA_DLLS.iter().find_map(|name| {
            let path = dir.join(name);
            if !path.is_file() {
                return None;
            }
            Self::load_file(&path)
        })
    }

    #[allow(unsafe_code)] // Loading a DLL and calling into it; see the SAFETY notes.
    fn load_file(path: &Path) -> Option<Nvda> {
        let name = wide(path.as_os_str());
        // SAFETY: `name` is a NUL-terminated wide string that outlives the call.
        let module = unsafe { LoadLibraryW(PCWSTR(name.as_ptr())) }.ok()?;
        // SAFETY: the module is loaded; the names are NUL-terminated.
        let get = |f: PCSTR| unsafe { GetProcAddress(module, f) };
        let found = (
            get(s!("nvdaController_testIfRunning")),
            get(s!("nvdaController_speakText")),
            get(s!("nvdaController_cancelSpeech")),
        );
        let (Some(test), Some(speak), Some(cancel)) = found else {
            // SAFETY: loaded above, nothing of it is kept.
            let _ = unsafe { FreeLibrary(module) };
            return None;
        };
        // SAFETY: these are the controller client's functions, whose
        // signatures (nvdaController.h) are the types transmuted to:
        // `error_status_t __stdcall f(void)` and `f(const wchar_t*)`.
        unsafe {
            Some(Nvda {
                module,
                test_if_running: std::mem::transmute::<_, NoArg>(test),
                speak_text: std::mem::transmute::<_, TextArg>(speak),
                cancel_speech: std::mem::transmute::<_, NoArg>(cancel),
                braille_message: get(s!("nvdaController_brailleMessage"))
                    .map(|f| std::mem::transmute::<_, TextArg>(f)),
            })
        }
    }
}

fn nvda_result(call: &'static str, code: u32) -> Result<(), SpeechError> {
    match code {
        0 => Ok(()),
        e => Err(SpeechError::Failed(format!("NVDA {call}: error {e}"))),
    }
}

impl ScreenReader for Nvda {
    fn name(&self) -> &'static str {
        "NVDA"
    }

    #[allow(unsafe_code)]
    fn running(&mut self) -> bool {
        // SAFETY: a function of the loaded client, without arguments.
        unsafe { (self.test_if_running)() == 0 }
    }

    #[allow(unsafe_code)]
    fn speak(&mut self, text: &str) -> Result<(), SpeechError> {
        let text = wide_str(text);
        // SAFETY: `text` is NUL-terminated and outlives the calls.
        let code = unsafe { (self.speak_text)(text.as_ptr()) };
        if let Some(braille) = self.braille_message {
            // SAFETY: as above.  The braille line is a courtesy: its
            // failure does not make the speech fail.
            let _ = unsafe { braille(text.as_ptr()) };
        }
        nvda_result("speak", code)
    }

    #[allow(unsafe_code)]
    fn silence(&mut self) -> Result<(), SpeechError> {
        // SAFETY: a function of the loaded client, without arguments.
        nvda_result("cancel", unsafe { (self.cancel_speech)() })
    }
}

impl Drop for Nvda {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the module was loaded by `load_file`; its functions are
        // not called after this.
        let _ = unsafe { FreeLibrary(self.module) };
    }
}

// One function of user32 (the UI feature of the `windows` crate is large
// to compile for it).
#[allow(unsafe_code)]
#[link(name = "user32")]
unsafe extern "system" {
    fn FindWindowW(class: PCWSTR, window: PCWSTR) -> HWND;
}

/// JAWS through its COM API.
pub struct Jaws {
    api: IDispatch,
    say_string: i32,
    stop_speech: Option<i32>,
}

impl Jaws {
    /// The API object, when JAWS is installed (its COM class registered).
    #[allow(unsafe_code)] // COM calls; see the SAFETY notes.
    pub fn open() -> Option<Jaws> {
        // SAFETY: COM for this thread (the speech engine's, which makes every
        // call); an apartment already set up answers S_FALSE or an error,
        // and the object is created all the same when COM is usable.
        let _ = unsafe { CoInitializeEx(None, COINIT_APARTMENTTHREADED) };
        // SAFETY: a NUL-terminated literal.
        let clsid: GUID = unsafe { CLSIDFromProgID(w!("FreedomSci.JawsApi")) }.ok()?;
        // SAFETY: a registered class id; IDispatch is what it offers.
        let api: IDispatch = unsafe { CoCreateInstance(&clsid, None, CLSCTX_ALL) }.ok()?;
        let say_string = dispatch_id(&api, "SayString")?;
        let stop_speech = dispatch_id(&api, "StopSpeech");
        Some(Jaws {
            api,
            say_string,
            stop_speech,
        })
    }

    #[allow(unsafe_code)]
    fn invoke(&self, id: i32, args: &mut [VARIANT]) -> Result<(), SpeechError> {
        let params = DISPPARAMS {
            rgvarg: args.as_mut_ptr(),
            rgdispidNamedArgs: std::ptr::null_mut(),
            cArgs: u32::try_from(args.len()).unwrap_or(0),
            cNamedArgs: 0,
        };
        // SAFETY: `params` points at `args`, alive for the call.
        unsafe {
            self.api.Invoke(
                id,
                &GUID::zeroed(),
                0,
                DISPATCH_METHOD,
                &params,
                None,
                None,
                None,
            )
        }
        .map_err(|e| SpeechError::Failed(format!("JAWS: {e}")))
    }
}

#[allow(unsafe_code)]
fn dispatch_id(api: &IDispatch, name: &str) -> Option<i32> {
    let name = wide_str(name);
    let names = [PCWSTR(name.as_ptr())];
    let mut id = 0i32;
    // SAFETY: one NUL-terminated name, one id to write.
    unsafe { api.GetIDsOfNames(&GUID::zeroed(), names.as_ptr(), 1, 0, &mut id) }.ok()?;
    Some(id)
}

impl ScreenReader for Jaws {
    fn name(&self) -> &'static str {
        "JAWS"
    }

    #[allow(unsafe_code)]
    fn running(&mut self) -> bool {
        // SAFETY: a NUL-terminated class name; no window name.
        !unsafe { FindWindowW(w!("JFWUI2"), PCWSTR::null()) }.is_invalid()
    }

    fn speak(&mut self, text: &str) -> Result<(), SpeechError> {
        // SayString(text, flush): the arguments go last first.
        let mut args = [VARIANT::from(false), VARIANT::from(BSTR::from(text))];
        self.invoke(self.say_string, &mut args)
    }

    fn silence(&mut self) -> Result<(), SpeechError> {
        match self.stop_speech {
            Some(id) => self.invoke(id, &mut []),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::backend::SpeechRoute;
    use super::super::screen_reader::tests::reader;
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn no_nvda_client_dll_means_no_nvda() {
        let dir = std::env::temp_dir().join(format!("hector-nvda-none-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(Nvda::load(&dir).is_none());
        // A file of that name that is no DLL is refused too, without a crash.
        std::fs::write(dir.join(NVDA_DLLS[0]), b"not a DLL").unwrap();
        assert!(Nvda::load(&dir).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_windows_order_takes_a_running_reader_before_the_voices() {
        let said = Arc::new(Mutex::new(Vec::new()));
        // The real readers of this machine (none under Wine), then fakes.
        let mut found = readers();
        assert!(
            found.iter_mut().all(|r| !r.running()),
            "a screen reader runs on the test machine"
        );
        found.push(reader("NVDA", false, &said));
        found.push(reader("JAWS", true, &said));
        let sink = EventSink::new(|_, _| {});
        let mut b = match open_in_order(found, || tts_voices(sink)) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(b.route(), Some(SpeechRoute::ScreenReader("JAWS".into())));
        b.speak("Dame d8", "de").unwrap();
        assert_eq!(*said.lock().unwrap(), ["JAWS: Dame d8"]);
    }

    #[test]
    fn without_a_reader_the_onecore_voices_or_their_error() {
        let sink = EventSink::new(|_, _| {});
        match open_in_order(Vec::new(), || tts_voices(sink)) {
            Ok(b) => assert!(matches!(b.route(), Some(SpeechRoute::SystemVoices { .. }))),
            // Wine has no OneCore voices: the error goes to the link, which
            // prints and says why, as on Linux without speech-dispatcher.
            Err(e) => assert!(matches!(e, SpeechError::Unavailable(_)), "{e}"),
        }
    }
}
