/* A stand-in for NVDA's controller client (nvdaControllerClient.dll), for
 * scripts/windows-nvda.sh under Wine: "NVDA runs" and every sentence handed
 * to it is appended, as UTF-8, to the file named by HECTOR_FAKE_NVDA_LOG
 * ("speak: ...", "braille: ...", "cancel").  Not shipped. */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

static void note(const char *what, const wchar_t *text) {
    const char *path = getenv("HECTOR_FAKE_NVDA_LOG");
    if (!path) return;
    FILE *f = fopen(path, "ab");
    if (!f) return;
    char utf8[4096] = "";
    if (text) WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, sizeof utf8, NULL, NULL);
    fprintf(f, "%s%s%s\n", what, text ? ": " : "", utf8);
    fclose(f);
}

__declspec(dllexport) unsigned long __stdcall nvdaController_testIfRunning(void) { return 0; }
__declspec(dllexport) unsigned long __stdcall nvdaController_speakText(const wchar_t *text) {
    note("speak", text);
    return 0;
}
__declspec(dllexport) unsigned long __stdcall nvdaController_brailleMessage(const wchar_t *text) {
    note("braille", text);
    return 0;
}
__declspec(dllexport) unsigned long __stdcall nvdaController_cancelSpeech(void) {
    note("cancel", NULL);
    return 0;
}
