#!/usr/bin/env python3
"""Writes the plist fixtures of BackupReaderTests with Python's plistlib (the committed files were
made by this script with Python 3.11; run it from this folder to remake them). plistlib writes real
NSKeyedArchiver UIDs (plistlib.UID), independently of Foundation."""
import datetime
import plistlib


def archive(fields, root=1):
    """An NSKeyedArchiver-shaped MBFile archive: UIDs point into $objects."""
    objects = ["$null"]
    record = {}
    extra = []
    for key, value in fields.items():
        if isinstance(value, (str, bytes, dict)) and key in ("RelativePath", "EncryptionKey", "Target"):
            extra.append((key, value))
        else:
            record[key] = value
    objects.append(record)
    for key, value in extra:
        record[key] = plistlib.UID(len(objects))
        objects.append(value)
    record["$class"] = plistlib.UID(len(objects))
    objects.append({"$classname": "MBFile", "$classes": ["MBFile", "NSObject"]})
    for _, value in extra:
        if isinstance(value, dict):
            value["$class"] = plistlib.UID(len(objects))
            objects.append({"$classname": "NSMutableData", "$classes": ["NSMutableData", "NSData", "NSObject"]})
    return {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(root)},
            "$objects": objects}


def write(name, value, fmt):
    with open(name, "wb") as f:
        plistlib.dump(value, f, fmt=fmt, sort_keys=True)


date = datetime.datetime(2015, 10, 1, 12, 30, 0)
write("Info.plist", {"Device Name": "Sam’s iPhone", "Display Name": "Sam’s iPhone",
                     "Last Backup Date": date, "Product Version": "9.0.2", "Product Type": "iPhone7,2",
                     "Build Version": "13A452", "Installed Applications": ["io.kern.ditto"]},
      plistlib.FMT_XML)
write("Manifest.plist", {"IsEncrypted": False, "WasPasscodeSet": True, "Version": "10.0",
                         "Lockdown": {"DeviceName": "Sam’s iPhone", "ProductVersion": "9.0.2"},
                         "Applications": {"group.io.kern.ditto": {}}}, plistlib.FMT_BINARY)
write("Status.plist", {"SnapshotState": "finished", "IsFullBackup": False, "Date": date,
                       "Version": "3.3"}, plistlib.FMT_BINARY)
write("Manifest-wrong-types.plist", {"IsEncrypted": "no", "Lockdown": ["not", "a", "dict"]},
      plistlib.FMT_BINARY)

write("mbfile-file.bplist", archive({"Size": 4096, "Mode": 0o100644, "LastModified": 1443702600,
                                     "ProtectionClass": 3, "InodeNumber": 123456, "UserID": 501,
                                     "RelativePath": "Ditto.sqlite"}), plistlib.FMT_BINARY)
write("mbfile-folder.bplist", archive({"Size": 0, "Mode": 0o40755, "LastModified": 1443702600,
                                       "RelativePath": "Library"}), plistlib.FMT_BINARY)
write("mbfile-no-size.bplist", archive({"Mode": 0o100644, "RelativePath": "Ditto.sqlite-shm"}),
      plistlib.FMT_BINARY)
write("mbfile-encryption-key.bplist",
      archive({"Size": 32768, "Mode": 0o100644, "ProtectionClass": 3,
               "EncryptionKey": {"NS.data": bytes([3, 0, 0, 0]) + bytes(range(40))},
               "RelativePath": "Ditto.sqlite-wal"}), plistlib.FMT_BINARY)
write("mbfile-wrong-types.bplist", archive({"Size": "big", "Mode": True, "LastModified": 1.5,
                                            "RelativePath": "x"}), plistlib.FMT_BINARY)
write("mbfile-root-out-of-range.bplist", archive({"Size": 1}, root=99), plistlib.FMT_BINARY)
write("mbfile-not-an-archive.bplist", {"Size": 1, "Mode": 0o100644}, plistlib.FMT_BINARY)
