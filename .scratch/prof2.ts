import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
const n = 160000;
const docs: string[] = [];
for (let i = 0; i < n; i++) docs.push('x'.repeat(1000));
for (const variant of ['full', 'nodoc', 'nolistings', 'sync-normal', 'bigcache']) {
  rmSync('/tmp/p2.sqlite', { force: true }); rmSync('/tmp/p2.sqlite-wal', { force: true });
  const db = new Database('/tmp/p2.sqlite');
  db.pragma('journal_mode = WAL');
  db.pragma(variant === 'sync-normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  if (variant === 'bigcache') db.pragma('cache_size = -262144');
  db.exec(`CREATE TABLE stays (idx INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, rank INTEGER, lat REAL, lng REAL, h3 TEXT, type TEXT, suppliers INTEGER, stars REAL, rating REAL, review_count INTEGER, search_name TEXT, doc TEXT);
  CREATE TABLE listing_ids (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (supplier_stay_id, supplier, idx)) WITHOUT ROWID;`);
  const ins = db.prepare('INSERT INTO stays VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)');
  const insL = db.prepare('INSERT INTO listing_ids VALUES (?,?,?)');
  const t = performance.now();
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      ins.run(i, 'st' + ((i * 2654435761) >>> 0).toString(32) + i, i, 1.5, 2.5, '8f2a1072b59ffff', 'hotel', 3, 4, 8.5, 100, 'hotel number ' + i, variant === 'nodoc' ? '' : docs[i]);
      if (variant !== 'nolistings') for (let s = 0; s < 2; s++) insL.run(String((i * 7919) % 1000003), s, i);
    }
  })();
  console.log(variant, (performance.now() - t).toFixed(0));
  db.close();
}
