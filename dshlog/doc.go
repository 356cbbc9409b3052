// Package dshlog is a read-only session store over DeepSeek Harness
// session logs, so the picker and Prepare work on a person's real
// history. A [*Store] implements [sessionref.SessionQuery]. The log
// format and the reader's rules are described in the repository's
// docs/dsh-logs.md.
//
// [Open] takes a sessions root (<root>/<project>/<session>/session.jsonl
// or session.jsonl.zstd; [DefaultRoot] is $DSH_HOME/sessions or
// ~/.dsh/sessions) and [OpenFile] one log. Listing reads only each log's
// header line (or the start of its first zstd frame).
//
// # One engine
//
// Every read goes through [jsonlog], the engine under the other agents'
// stores too. A log is read in one pass: each complete line is handed
// to the log's index, which checks the format's rules, folds the
// current surface from the append and replace operations as it goes,
// and keeps, of each message, where its line is and how a snapshot sees
// it (its projected length and kind) — never its text. A message's text
// is read back from its line when asked for: at its offset in a raw log,
// by decoding its one frame in a zstd log (each frame holds whole
// lines). A log whose last turn is still open gets the reference's
// crash-repair closers in memory, marked Synthetic.
//
// The reader follows the format's robustness rules: a torn last line or
// zstd frame is not yet written, not corruption (a torn frame's whole
// lines are read, by a copy of the index that is never kept); a bad line
// or seq gap ends the log unless a later turn/end makes it corrupt; a
// bad record inside a complete zstd frame is corrupt at once; an unknown
// event type that is not ignorable makes the session unreadable (it
// still lists); a format version other than 0 is refused with a message
// to upgrade. Header gaps the format tolerates (no version, no
// delegationDepth) are read as 0 with a warning. Every error is a
// *[LogError] naming the file and, where there is one, the line.
//
// Titles are read by a second, lighter index through the same engine: a
// line is decoded only when it holds "session/title" or a JSON escape
// that could spell it (\u, \/), so the title is the one a decoder of
// every line finds. A title record longer than 1 MiB is not read: the
// session's title is then an ErrTooLarge error, not an earlier title.
//
// A context that ends stops a read with a *LogError wrapping its error,
// and the read caches nothing. A listed log replaced by another
// session's log is not read as the session asked for (ErrNotFound); a
// root or project directory that stops being a directory is
// ErrNotRegular.
//
// Files are hostile: only regular files are opened, without blocking
// (a session read by id whose log is a FIFO, socket, device, directory
// or link gets that file's ErrNotRegular error, as listing does, and
// OpenFile refuses such a path; OpenFile's own path may be a link, which
// is followed at each read); symbolic links below the root are not
// followed; a context that ends stops the reading.
//
// Bombs cost little: zstd output is counted while it streams, never
// materialised, against a cap ([WithMaxLogBytes], 256 MiB by default; a
// raw log's size on disk is held to it too) and, for a zstd log, against
// 1024 times its size on disk (at least 32 MiB): JSON lines compress 5
// to 50 times, a bomb thousands of times. A record (line) longer than 16
// MiB is an ErrTooLarge error naming its line, raised as the line passes
// that size; an empty line inside a complete zstd frame is corruption at
// that line, so a frame of newlines stops at once, as does any bad
// record inside a complete frame. Past a cap or the record size, a read
// or a title fails with a typed error naming the file; the cost is
// bounded by those sizes, not by what the file would decode to.
//
// Nor does a record's shape cost more than its bytes: no record is
// parsed into a tree (one costs about 450 bytes a JSON value, 250 times
// a record of tiny values). A line is checked by a scanner that
// allocates nothing and counts its values and depth; of a record whose
// data is skipped (an ignorable event, a log-only event, a packed chunk
// row, which is only counted) nothing is built whatever its shape; of a
// message, only what the surface keeps is copied out of the line. A
// message record holds at most 131,072 JSON values nested at most 64
// deep, and a chunk row at most 65,536 entries: over a cap, the read
// fails with an ErrTooLarge error naming the line, the session and the
// seq, as for a record over 16 MiB.
//
// Files are never written, truncated, locked or repaired. Indexes are
// cached by file identity and version (device, inode, size, mtime,
// ctime, mode; size and times where there is no inode) within a byte
// budget ([WithCacheBytes]), the least recently read dropped first. A
// log whose version changed is read as an append, from the last whole
// line or frame read, only when it is the same file (device and inode),
// strictly bigger, the 64 bytes before that stop are unchanged and its
// first 4 KiB hash as before; anything else is read in full, as a
// rewrite: a same-size change of any kind (even with the mtime put back:
// the ctime or mode moved), a shrink, a new inode, a change of the first
// 4 KiB or of the 64 bytes before the stop. A file rewritten while it is
// read is read again (up to five times, then an error); one that only
// grew is read as it was when the read began. Not detected, at this
// bounded cost (a few KiB read per check): a rewrite in place into a
// bigger file that keeps both of those byte ranges but changes bytes
// between them; it is served as the old prefix plus the appended
// records; nor, where the system gives no ctime (Windows), a same-size
// rewrite with the mtime put back. A line read back is checked to still
// end where it did and to still be a message of the length the index
// saw; anything else is an error, never another version's text. The same
// rules apply to the titles' index.
//
// # Cost
//
// A read costs time linear in the log: each line is scanned and its
// envelope decoded once, the crash-repair closers keep the pending
// calls in order with an index by id, and the fold keeps the surface as
// runs of consecutive messages with an index by seq, so a replace finds
// its range at once and walks only what it removes. Reading messages
// back costs one read (raw) or one frame's decoding (zstd; a reader
// keeps the last frame's text up to 4 MiB, so the messages of one frame
// cost one decoding) each.
//
// # Memory
//
// What a store holds is a budget of its options, not a consequence of
// what it reads, and no read holds a log's text unless it returns it.
// With M a log's messages (surface events, whatever their fate), P the
// calls pending in its open turn, R the runs of its surface (one for a
// log that only appends, at most two more a replace) and T the text of
// its messages:
//
//   - a log's index holds 17 bytes a message (its line's place and
//     length, its projected length and kind), two bits a seq, R×90 and
//     P×100, and about 1 KiB: M×17 + R×90 + P×100 in all. While a zstd
//     log's last frame is torn (a session being written), a copy of the
//     index reads its lines: twice that;
//   - an outline (ReadOutline, which Prepare uses) adds 20 bytes a
//     projected message and keeps the index's places alive: Prepare
//     holds M×37 + R×90 + P×100 + what the snapshot keeps
//     (MaxReferenceBytes, the newest message and the checkpoints, each at
//     most a record);
//   - a walk (WalkSurface, which the full-text index uses) holds the
//     index and one message at a time;
//   - ReadSurface returns every message: about 150 bytes each plus its
//     text (M×150 + T) besides the index;
//   - while it reads, a read holds besides what it keeps a 64 KiB buffer,
//     its longest line twice (a line that spans buffers is gathered, its
//     buffer doubled as it grows; at most 16 MiB, a longer one is
//     ErrTooLarge), and for a zstd log its compressed bytes and a
//     decoder's window (at most 16 MiB); reading a message back holds
//     a 64 KiB window of a raw log, or its frame's text up to 4 MiB (of
//     a bigger frame, the decoder and the text from 4 MiB before the
//     last line read: lines in file order decode it once, and so do
//     lines a little way back, as Prepare reads them, newest first; a
//     step further back decodes it again from its start; ReadSurface
//     reads in file order, a walk in surface order). An outline keeps
//     that text between its Text calls, until Prepare lets it go.
//     [Store.ReadCost] tells what the last read of a session held so, for
//     an indexer that reads several at once (discover's ReadCoster);
//   - at most CacheBytes ([WithCacheBytes], 64 MiB) of indexes are kept
//     between reads (an index bigger than that alone is not kept), and
//     reads running at once hold at most ReadBytes ([WithReadBytes], 256
//     MiB), each counted as its buffer, the longest line it may hold and
//     a zstd log's compressed bytes; one over that alone runs alone.
//
// Since a log is at most MaxLogBytes ([WithMaxLogBytes], 256 MiB) and a
// message takes a line of at least 80 bytes (the envelope alone), M ≤
// MaxLogBytes/80: the outline of any raw log within the cap holds at
// most about half the cap besides what the snapshot keeps and its runs,
// and a walk a fifth. Replaces are what makes R big: a one-message
// replace is a line of at least about 120 bytes that adds two runs, so a
// log made only of them holds up to 1.5 bytes a byte of the log for its
// runs; a log of ordinary history, where replaces are rare, holds a few
// KB for them. A garbage-collected heap needs up to twice its live size.
// scripts/bench-hostile measures the peaks of the worst shapes (a
// million small messages, raw and zstd; 100,000 pending calls; a replace
// storm; records of tiny values); docs/performance.md gives the
// figures. Titles and headers keep a few hundred bytes a log.
package dshlog
