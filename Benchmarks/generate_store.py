#!/usr/bin/env python3
"""Writes a synthetic Ditto 2.x Core Data store for the benchmark (scripts/bench).

The layout is Core Data's (see Sources/StoreFixtures/LegacyStoreWriter.swift): page_size 4096,
auto_vacuum 2 (incremental), WAL mode, checkpointed and closed, so every row is in the main file.

    ENTITY    TABLE      CONTENT
    Profile   ZPROFILE   one row, Z_PK 1
    Category  ZCATEGORY  `categories` rows; ZPROFILE 1; Z_FOK_PROFILE 2048 + 1024*i; unique titles
    Ditto     ZDITTO     `dittos` rows spread over the categories (sizes vary by up to +-50%);
                         Z_FOK_CATEGORY 2048 + 1024*i within its category; ZUSE_COUNT random 0..500;
                         ZTEXT 10-300 characters, 2% of them 2-6 KB; unique within a category

Primary keys of categories and dittos are shuffled, so Z_PK order is not list order (as on a device
where dittos were reordered and moved), and rows are inserted in Z_PK order (rowid order on disk).
Texts are drawn from a word list with some accents, emoji, commas, quotes and line breaks, so the
CSV writer's quoting path is exercised. The same seed always gives the same store.

Usage: generate_store.py --out FILE --dittos N --categories C [--seed S]
"""

import argparse
import os
import plistlib
import random
import sqlite3
import sys
import uuid

SCHEMA = [
    "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPROFILE INTEGER, Z_FOK_PROFILE INTEGER, ZTITLE VARCHAR )",
    "CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSE_COUNT INTEGER, ZCATEGORY INTEGER, Z_FOK_CATEGORY INTEGER, ZTEXT VARCHAR )",
    "CREATE TABLE ZPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
    "CREATE INDEX ZCATEGORY_ZPROFILE_INDEX ON ZCATEGORY (ZPROFILE)",
    "CREATE INDEX ZDITTO_ZCATEGORY_INDEX ON ZDITTO (ZCATEGORY)",
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
]

WORDS = (
    "the of and to in is you that it he was for on are as with his they at be this have from or "
    "one had by word but not what all were we when your can said there use an each which she do "
    "how their if will up other about out many then them these so some her would make like him "
    "into time has look two more write go see number no way could people my than first water been "
    "call who oil its now find long down day did get come made may part thanks regards meeting "
    "tomorrow address invoice please Monday Friday schedule phone email kind best café naïve "
    "résumé Zürich São Paulo 東京 😀 👍 ✅ €100 §3 “quoted” 'single'"
).split()
PUNCTUATION = [" ", " ", " ", " ", " ", " ", ", ", ". ", "! ", "? ", "; ", ": ", " - ", ' "', '" ', "\n", "\r\n"]


def make_corpus(rnd, size):
    """A long pseudo-text that texts are cut from (cheaper than building each text word by word)."""
    parts = []
    total = 0
    while total < size:
        word = rnd.choice(WORDS)
        sep = rnd.choice(PUNCTUATION)
        parts.append(word)
        parts.append(sep)
        total += len(word) + len(sep)
    return "".join(parts)


def text_length(rnd):
    if rnd.random() < 0.02:
        return rnd.randint(2048, 6144)
    return rnd.randint(10, 300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--dittos", type=int, required=True)
    parser.add_argument("--categories", type=int, required=True)
    parser.add_argument("--seed", type=int, default=302)
    args = parser.parse_args()
    if os.path.exists(args.out):
        sys.exit(f"{args.out} exists")
    rnd = random.Random(args.seed)

    n_cat, n_ditto = args.categories, args.dittos
    # Category sizes: random weights in [0.5, 1.5], scaled to sum exactly to n_ditto.
    weights = [rnd.uniform(0.5, 1.5) for _ in range(n_cat)]
    scale = n_ditto / sum(weights)
    sizes = [int(w * scale) for w in weights]
    for i in range(n_ditto - sum(sizes)):
        sizes[i % n_cat] += 1

    corpus = make_corpus(rnd, 1 << 21)
    limit = len(corpus) - 6200

    def cut(length):
        start = rnd.randrange(limit)
        return corpus[start:start + length].strip() or "x" * length

    category_pks = list(range(1, n_cat + 1))
    rnd.shuffle(category_pks)
    ditto_pks = list(range(1, n_ditto + 1))
    rnd.shuffle(ditto_pks)

    categories = []  # (pk, ent, opt, profile, fok, title)
    dittos = [None] * n_ditto  # indexed by pk - 1: (pk, ent, opt, use, category, fok, text)
    titles = set()
    next_ditto = 0
    for i in range(n_cat):
        title = f"{cut(rnd.randint(4, 24))} {i + 1}"
        while title in titles:
            title += "+"
        titles.add(title)
        pk = category_pks[i]
        categories.append((pk, 1, 1, 1, 2048 + 1024 * i, title))
        seen = set()
        for j in range(sizes[i]):
            text = cut(text_length(rnd))
            while len(text) < 10 or text in seen:
                text = cut(text_length(rnd))
            seen.add(text)
            dpk = ditto_pks[next_ditto]
            next_ditto += 1
            dittos[dpk - 1] = (dpk, 2, 1, rnd.randint(0, 500), pk, 2048 + 1024 * j, text)
    categories.sort()

    tmp = args.out + ".tmp"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    db = sqlite3.connect(tmp, isolation_level=None)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA auto_vacuum = 2")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN")
    for statement in SCHEMA:
        db.execute(statement)
    db.execute("INSERT INTO ZPROFILE (Z_PK, Z_ENT, Z_OPT) VALUES (1, 3, 1)")
    db.executemany("INSERT INTO ZCATEGORY VALUES (?, ?, ?, ?, ?, ?)", categories)
    db.executemany("INSERT INTO ZDITTO VALUES (?, ?, ?, ?, ?, ?, ?)", dittos)
    db.executemany(
        "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)",
        [(1, "Category", n_cat), (2, "Ditto", n_ditto), (3, "Profile", 1)],
    )
    plist = plistlib.dumps(
        {
            "NSStoreType": "SQLite",
            "NSPersistenceFrameworkVersion": 641,
            "NSStoreModelVersionHashes": {k: b"\xab" * 32 for k in ("Category", "Ditto", "Profile")},
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "_NSAutoVacuumLevel": "2",
        },
        fmt=plistlib.FMT_BINARY,
    )
    store_uuid = str(uuid.UUID(int=rnd.getrandbits(128))).upper()
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plist))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)
    os.rename(tmp, args.out)


if __name__ == "__main__":
    main()
