/* Wine 8 has no bcryptprimitives.dll, whose ProcessPrng Rust's standard
 * library calls for random numbers on Windows 10 and later (where the DLL is
 * always there).  scripts/windows.sh builds this stand-in into its Wine
 * prefix only, for the tests: ProcessPrng through RtlGenRandom.  Not shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
