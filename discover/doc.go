// Package discover finds sessions by what was said in them: a full-text
// index over any [sessionref.SessionQuery], kept in SQLite FTS5 through
// modernc.org/sqlite (pure Go: no cgo, it cross-builds).
//
//	ix, err := discover.Open(path, store, discover.WithProgress(report))
//	stats, err := ix.Sync(ctx)                   // index what is new or changed
//	hits, err := ix.Search(ctx, target, "retry bug", 20)
//
// # What is indexed
//
// Exactly what a snapshot could show the model, from the core's own
// projection ([sessionref.Project]): direct user messages, assistant text
// and compaction checkpoints, never tool output, reasoning, plugin text or
// earlier snapshots; plus the session's latest title. Each message
// contributes its first 16 KiB and a session at most 512 KiB
// ([WithLimits]), so the index grows linearly with the number of
// sessions whatever one of them holds.
//
// # Sync
//
// [Index.Sync] is incremental: a session is read again when its capture
// seq (the seq of its log's last event), its title event seq or its
// title's text changed, or the token of a [VersionLister] (dshlog: the
// log file's identity and version), and indexed again only when the text
// it gives the index changed (a hash of it is kept): a log replaced by
// another with the same seqs is seen, across restarts. A store read in
// full (no SeqLister) is compared by that hash alone. Sessions the store
// no longer lists leave the index. A store
// that implements [SeqLister] spares Sync reading unchanged surfaces (it
// is asked only about sessions the index already holds: a new one is
// read anyway). Surfaces are read ahead of the session being written, up
// to four at once so a slow store is waited on in parallel, and bounded
// by bytes: the first read is alone, and another starts only while that
// many reads of the largest surface seen so far fit in 64 MiB
// (readAheadBytes), so after one huge session they go one at a time. A
// read counts as the larger of its surface and what the store says
// decoding it held ([ReadCoster]; dshlog: three times the log's longest
// record), so logs cheap on the surface but dear to decode (one huge
// skipped record) are read one at a time too. A
// store that implements [SurfaceWalker] (dshlog does) passes its events
// one at a time, and the walk stops once the session's text is full: no
// whole surface is held. Work is committed in batches of 128 sessions, so
// a search during a first Sync already sees the sessions done (newest
// first, the store's order), and a cancelled Sync keeps them.
// [WithProgress] reports each step.
//
// # Memory
//
// A Sync holds, besides SQLite's page cache (32 MiB a connection) and
// FTS5's pending terms (32 MiB a table before a flush): the session list
// and the index's states (a few hundred bytes a session); at most four
// bodies waiting to be written (perSession each, 512 KiB by default);
// and what the store holds to read the surfaces in flight, whose sizes S
// (each the larger of the surface and its [ReadCoster] cost) sum to at
// most max(64 MiB, S of the largest read) as estimated from the reads
// already made. With a [SurfaceWalker] no surface is held,
// only the store's own reading state (for dshlog, no text: a big raw log
// is folded as it streams, about 5 bytes a message; see its package
// doc). So a Sync's own memory is at most about
// 4 × perSession + max(64 MiB, largest S) + 100 MiB, whatever the number
// of sessions.
//
// # Tokenizers
//
// Two FTS5 tables share one row per session:
//
//   - tri, with the trigram tokenizer (case and diacritics folded), finds
//     any term of three characters or more as a substring of the text. It
//     needs no word boundaries, so it finds Chinese and Japanese words,
//     emoji sequences, identifiers like retry.go and the start of a word
//     still being typed, in any script.
//   - words, with unicode61 (diacritics removed), answers the terms
//     trigrams cannot: one or two characters. A short word of a script
//     written with spaces is a word or, while being typed, a word prefix
//     ("go" finds go and golang; prefix indexes of one to three
//     characters answer it without merging every word it starts).
//     Characters of scripts written without
//     spaces (Han, kana, Hangul, Thai, …) and symbols such as emoji are
//     also indexed as one- and two-character grams, so a two-character
//     Chinese word (崩溃) or a lone emoji (🎉) is found.
//
// unicode61 alone cannot split Chinese or Japanese (a whole run of
// characters is one token) and drops emoji; trigrams alone cannot match
// fewer than three characters. Together they cover both, and a query of
// several terms uses each table for the terms it answers.
//
// # Queries
//
// A query is what a person types, never FTS5 syntax: words (all must
// occur), "quoted phrases" (straight or curly quotes; an unclosed one
// runs to the end), and the last word as a prefix. Every term reaches
// MATCH as a quoted FTS5 string, so quotes, *, -, NEAR(, AND, OR and
// parentheses are text, never operators; punctuation around a word is
// dropped, and a query with nothing searchable in it (empty, all
// punctuation) gives no hits and no error. Only the first 4 KiB, 16
// terms and 256 bytes of a term are read, which can only widen a match.
//
// Every search is bounded, whatever is typed and whatever the sessions
// hold. FTS5 matches a phrase at each position of its first token, one
// token after another, so a phrase keeps its first 4 words and a run of
// Han, kana or emoji its first 5 characters (3 trigrams); a term written
// twice counts once, and at most 8 distinct operands reach each table.
// Cutting only widens a match. So the full-text part costs at most 8
// operands × 4 tokens for each position of the sessions matching them;
// the snippets scan the text (at most 512 KiB a session) of at most limit
// sessions for at most 16 needles, in time linear in the text (the
// highlighter's search is Knuth-Morris-Pratt, so a run of one letter
// costs what any text does). A cancelled context stops the SQLite query
// (its interrupt) and the snippets (checked every 32 KiB of text and
// between hits): BenchmarkSearchHostile's 20 sessions of 16 KiB runs,
// searched for 16 long terms, take 0.2-130 ms a search (1.6 s and 5.5 s
// before these bounds) and stop within 2 ms of a deadline.
//
// Hits are ranked by bm25 (a title match weighs four times a message
// match), then by working directory as candidates are (same, none,
// other), then newest first. FTS5 scores every match, so a search costs
// time linear in the sessions that match; only the best few by score
// are then read and ordered in full (all of them when equal scores cross
// the limit), and an index of 2,048 sessions or more is scored in two
// halves at once, whose scores compare as bm25 reads the statistics of
// the whole table. The target session is never a hit. Each hit
// carries a one-line snippet, sanitised for the terminal, with the byte
// ranges of the matched terms.
//
// # The index file
//
// The file is a cache. A missing file is created; a file that is not a
// readable index, or was written by another schema version, is replaced
// and reported as a [Notice] ([Index.Notices]), never a failure. Damage
// found later is repaired the same way: the first Sync of each Index
// checks the whole file (SQLite's quick_check and FTS5's integrity-check
// of both tables, a read of every page, linear in the file's size), and a
// search or a write that meets a damaged page ([ErrDamaged]) makes the
// next Sync rebuild the file before it indexes, even when no session
// changed. A damage no check sees (a page of a table FTS5 reads only
// through a valid structure) loses matches until the file is rebuilt; it
// never fails a search for good. A SQLite database
// that is not an index of this package, or a path that is not a regular
// file, is refused and left alone, and so is a file that cannot be
// opened for reading and writing ([ErrUnreadable]) or a directory that
// cannot be written ([ErrUnwritable], where SQLite writes its journal),
// each with one sentence saying which and why. A journal (the -wal and
// -shm files beside the index) that no process holds, left by a process
// that was killed or put there from another index, is set aside
// (renamed *.stale) unread, with a [NoticeStaleJournal]: SQLite would
// apply whatever -wal it finds to the file it opens, another index's
// included. What it held of ours is indexed again by the next Sync. A
// journal another process (or another Index of this process) holds is
// in use and left alone; on Windows, where its lock is not tested, the
// journal is left to SQLite. The file is opened in WAL mode with a
// busy timeout and immediate write transactions, so several processes
// may search and sync one file. [DefaultPath] puts it under the user's
// cache directory, keyed by the sessions root; [RefuseInside] makes Open
// refuse any path inside a sessions root, which is never written. An
// empty path keeps the index in memory.
package discover
