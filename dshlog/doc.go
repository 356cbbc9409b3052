// Package dshlog is a read-only session store over DeepSeek Harness
// session logs, so the picker and Prepare work on a person's real
// history. A [*Store] implements [sessionref.SessionQuery]. The log
// format and the reader's rules are described in the repository's
// docs/dsh-logs.md.
//
// [Open] takes a sessions root (<root>/<project>/<session>/session.jsonl
// or session.jsonl.zstd; [DefaultRoot] is $DSH_HOME/sessions or
// ~/.dsh/sessions) and [OpenFile] one log. Listing reads only each log's
// header line (or first zstd frame). Reading a session decodes its log —
// packed chunk rows expanded, legacy shapes upgraded — and folds the
// current surface from its append and replace operations. A log whose
// last turn is still open gets the reference's crash-repair closers in
// memory, marked Synthetic.
//
// The reader follows the format's robustness rules: a torn last line or
// zstd frame is not yet written, not corruption; a bad line or seq gap
// ends the log unless a later turn/end makes it corrupt; an unknown event
// type that is not ignorable makes the session unreadable (it still
// lists); a format version other than 0 is refused with a message to
// upgrade. Header gaps the format tolerates (no version, no
// delegationDepth) are read as 0 with a warning. Every error is a
// *[LogError] naming the file and, where there is one, the line.
//
// Titles are found without decoding events: a byte search for
// "session/title" in the log (or its decompressed stream), and for the
// JSON escapes that could spell it otherwise (\u and \/), then only
// those lines are decoded, so the title is the one a decoder of every
// line finds; the result is cached per file and extended as the file
// grows. A title record longer than 1 MiB is not read: the session's
// title is then an ErrTooLarge error, not an earlier title. Reading a
// surface decodes each record's envelope and only the data the fold, the
// closers and the surface need.
//
// Files are hostile: only regular files are opened, without blocking
// (a session read by id whose log is a FIFO, socket, device, directory
// or link gets that file's ErrNotRegular error, as listing does, and
// OpenFile refuses such a path); symbolic links below the root are not
// followed; a context that ends stops the decoding.
//
// Bombs cost little: zstd output is counted while it streams, never
// materialised first, against a cap ([WithMaxLogBytes], 256 MiB by
// default; a raw log's size on disk is held to it too) and, for a zstd
// log, against 1024 times its size on disk (at least 32 MiB): JSON lines
// compress 5 to 50 times, a bomb thousands of times. A record (line)
// longer than 16 MiB is an ErrTooLarge error naming its line, raised as
// the line streams past that size; an empty line inside a complete zstd
// frame is corruption at that line, raised when it is decoded, so a frame
// of newlines stops at once. Past a cap or the record size, a read or a
// title fails
// with a typed error naming the file; the cost is bounded by those sizes
// (a frame's text is kept until the frame ends, a line's until it ends),
// not by what the file would decode to.
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
// Files are never written, truncated, locked or
// repaired. Parsed logs are cached by file identity and version (device,
// inode, size, mtime, ctime, mode; size and times where there is no
// inode) within a byte budget ([WithCacheBytes]); a file that changes
// during a read is read again. A log whose key changed is decoded as an
// append, from the last whole line or frame read, only when it is the
// same file (device and inode), strictly bigger, the 64 bytes before that
// stop are unchanged and its first 4 KiB (the header and first records)
// hash as before; anything else is read in full, as a rewrite: a
// same-size change of any kind (even with the mtime put back: the ctime
// or mode moved), a shrink, a new inode, a change of the first 4 KiB or
// of the 64 bytes before the stop. Not detected, at this bounded cost (a
// few KiB read per check): a rewrite in place into a bigger file that
// keeps both of those byte ranges but changes bytes between them; it is
// served as the old prefix plus the appended records; nor, where the
// system gives no ctime (Windows), a same-size rewrite with the mtime put
// back. The same rules apply to the title scan's cache.
//
// # Cost
//
// A read costs time linear in the log: each line is decoded once, the
// crash-repair closers keep the pending calls in order with an index by
// id, and the fold keeps the surface as a linked list with an index by
// seq, so a replace finds its range at once and walks only the nodes it
// removes. Measured (BenchmarkReadHostile, 2 shared cores): about 13 µs
// a pending tool call (100,000 in an open turn: 1.3 s, twice the time of
// 50,000) and 10 µs a compaction (50,000: 0.5 s; the fold alone 17 ms,
// where the fold by slice took 3 s).
//
// # Memory
//
// What a store holds is a budget of its options, not a consequence of
// what it reads, and no read holds a log's text unless it returns it.
// With M a log's messages (surface events, whatever their fate), P the
// calls pending in its open turn, and T the text of its messages:
//
//   - an outline (ReadOutline, which Prepare uses) or a walk
//     (WalkSurface, which the full-text index uses) of a log of 4 MiB or
//     more (a zstd log: 256 KiB on disk) whose parse is not cached
//     streams it: the log is folded as it is read, one pass, keeping no
//     message — the surface as runs of consecutive messages (one run for
//     a log that only appends, at most three more a replace, about 70
//     bytes each), two bits a seq, 5 bytes a message (its projected
//     length and kind) and, in a raw log, the offset of every 64th
//     message's line. Messages are decoded again when asked for: an
//     outline's Text the ones a snapshot keeps, a walk each in turn (the
//     lines of a block of 64 are found once). A zstd log cannot be read
//     at an offset: it is streamed again, keeping only the messages
//     asked for and those likely next (an outline: the newest messages
//     and checkpoints up to 1 MiB of text, a walk the next 4 MiB of the
//     surface; both doubled at each read back, so a log is decoded a
//     logarithmic number of times). An outline adds 20 bytes a
//     projected message. So Prepare holds M×25 +
//     R×90 + what the snapshot keeps (MaxReferenceBytes, the newest
//     message and the checkpoints, each at most a record) + 17 MiB, and
//     an index's walk M×5 + R×90 + what the index keeps, with R ≤ 1 + 2 ×
//     the replaces (compactions and tool-result rewrites: a replace cuts
//     a run in three, the run it takes out reused; about 45 bytes a run,
//     twice that while the runs' arrays grow);
//   - any other read parses the log: 80 bytes a message, and no other
//     event (what the crash-repair closers need of turns, steps and calls
//     is kept as it is read: P×100). In a raw log a message is kept as
//     the place of its line and decoded again when read; in a zstd log,
//     whose decoded stream cannot be read at an offset, a message of the
//     common shape (one text block, a source with only its kind) is kept
//     as its text, any other decoded. So a raw log's parse holds M×80, a
//     zstd log's M×80 + T, and a few hundred bytes more for each message
//     of an uncommon shape; folding it adds about 20 bytes a message;
//   - ReadSurface returns every message: about 150 bytes each plus its
//     text (M×150 + T);
//   - while it decodes, a read holds besides what it keeps about three
//     times its longest record (at most 16 MiB, a longer one is
//     ErrTooLarge: the line buffer, doubled as it grows, or a zstd
//     frame's text), up to 4 MiB more of a zstd frame's text (a bigger
//     frame is decoded a piece at a time, never held whole: frameFlush),
//     a zstd decoder's window (at most 16 MiB) and a zstd log's
//     compressed bytes, and nothing per value of a record; reading
//     messages back holds 1 MiB of the file (or the record) at a time.
//     [Store.ReadCost] tells what the last read of a session held so, for
//     an indexer that reads several at once (discover's ReadCoster);
//   - at most CacheBytes ([WithCacheBytes], 64 MiB) of parses are kept
//     between reads, and reads decode at most ReadBytes ([WithReadBytes],
//     256 MiB) of logs at once, counted as a raw log's size or a zstd
//     log's compressed size plus what its frames declare (its cap when
//     they do not), and a log over that alone.
//
// Since a log is at most MaxLogBytes ([WithMaxLogBytes], 256 MiB) and a
// message takes a line of at least 80 bytes (the envelope alone), M ≤
// MaxLogBytes/80: the outline of any raw log within the cap holds at
// most a third of the cap (85 MB) besides what the snapshot keeps, and a
// walk a sixteenth, plus R×90 for its runs. Replaces are what makes R
// big: a one-message replace is a line of at least about 120 bytes that
// adds two runs, so a log made only of them holds up to 1.5 bytes a byte
// of the log for its runs (384 MB at the cap); a log of ordinary
// history, where replaces are rare, holds a few KB for them.
// A garbage-collected heap needs up to twice its live size. Measured
// (scripts/bench-hostile): a raw log of 1,000,000 small messages (253
// MB): Prepare peaks at 44 MB resident, a Sync of it at 37 MB,
// ReadSurface at 306 MB (it returns 1,000,000 messages); a zstd log of
// 950,000 messages (3.3 MB, 232 MB decoded): Prepare at 76 MB; a log of
// 100,000 pending calls: a Sync at 84 MB; a log of 800,000 messages then
// 400,000 one-message replaces (250 MB): a Sync at 131 MB. A log of two
// messages and one record of 16.7 MB of tiny values (an ignorable
// [0,0,…], {"k":0,…}, arrays 250 deep, a chunk row of 2.8 million
// entries), raw or as a 2 KB zstd log: Prepare and Sync at 40 to 68 MB
// (4 GB before records were scanned), four such zstd logs indexed at once
// 100 MB. Titles and headers are streamed and keep a few hundred bytes a
// log.
package dshlog
