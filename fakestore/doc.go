// Package fakestore is an in-memory session store that behaves like a
// DeepSeek Harness session log, for tests, demos and hosts that have no
// storage yet. It implements [sessionref.SessionQuery].
//
// Sessions are append-only event lists with contiguous seqs. Messages
// enter the surface with an append; [Store.Compact] replaces a range of
// the surface by a checkpoint, as a replace operation does, so a surface
// can be out of seq order. Titles are events too, and the latest wins.
// [Store.ReadSurface] hands out detached copies.
//
// [Store.Seed] generates a reproducible corpus, and [WithLatency] and
// [Store.FailReads] inject the slowness and failures a UI must survive.
package fakestore
