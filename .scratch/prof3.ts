import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
const n = 160000;
const docs: string[] = [];
for (let i = 0; i < n; i++) docs.push('x'.repeat(1000));
for (const variant of ['idx-after', 'idx-after-nodoc', 'idx-after', 'full']) {
  rmSync('/tmp/p2.sqlite', { force: true }); rmSync('/tmp/p2.sqlite-wal', { force: true });
  const db = new Database('/tmp/p2.sqlite');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const after = variant.startsWith('idx-after');
  const t = performance.now();
  db.transaction(() => {
  db.exec(`CREATE TABLE stays (idx INTEGER PRIMARY KEY, id TEXT NOT NULL ${after ? '' : 'UNIQUE'}, rank INTEGER, lat REAL, lng REAL, h3 TEXT, type TEXT, suppliers INTEGER, stars REAL, rating REAL, review_count INTEGER, search_name TEXT, doc TEXT);`);
  db.exec(after ? `CREATE TABLE listing_ids (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL)` : `CREATE TABLE listing_ids (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (supplier_stay_id, supplier, idx)) WITHOUT ROWID;`);
  const ins = db.prepare('INSERT INTO stays VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)');
  const insL = db.prepare('INSERT INTO listing_ids VALUES (?,?,?)');
    for (let i = 0; i < n; i++) {
      ins.run(i, 'st' + ((i * 2654435761) >>> 0).toString(32) + i, i, 1.5, 2.5, '8f2a1072b59ffff', 'hotel', 3, 4, 8.5, 100, 'hotel number ' + i, variant.endsWith('nodoc') ? '' : docs[i]);
      for (let s = 0; s < 2; s++) insL.run(String((i * 7919) % 1000003), s, i);
    }
    if (after) db.exec('CREATE UNIQUE INDEX stays_id ON stays (id); CREATE INDEX listing_ids_key ON listing_ids (supplier_stay_id, supplier);');
  })();
  console.log(variant, (performance.now() - t).toFixed(0));
  db.close();
}
