"""Reports every close of the given files by any process, through Linux inotify (ctypes, no packages).

Prints READY once every watch is in place, then one line per event, in the order the kernel saw them:
OPEN path / CLOSE path. Runs until killed.

usage: close_watcher.py FILE...
"""
import ctypes
import os
import struct
import sys

IN_CLOSE_WRITE, IN_CLOSE_NOWRITE, IN_OPEN = 0x08, 0x10, 0x20
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len (a name follows only for watched folders)


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        sys.exit("inotify_init1 failed: errno %d" % ctypes.get_errno())
    watched = {}
    for path in sys.argv[1:]:
        wd = libc.inotify_add_watch(fd, path.encode(), IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)
        if wd < 0:
            sys.exit("inotify_add_watch %s failed: errno %d" % (path, ctypes.get_errno()))
        watched[wd] = path
    print("READY", flush=True)
    while True:
        data = os.read(fd, 65536)
        offset = 0
        while offset < len(data):
            wd, mask, _, length = EVENT.unpack_from(data, offset)
            offset += EVENT.size + length
            print(("OPEN " if mask & IN_OPEN else "CLOSE ") + watched.get(wd, "?"), flush=True)


if __name__ == "__main__":
    main()
