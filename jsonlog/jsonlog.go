// Package jsonlog is the one engine under every log store (DeepSeek
// Harness logs, Claude Code transcripts, Codex rollouts): it reads an
// append-only JSON Lines log in one pass, hands each complete line to a
// format's [Indexer] (which keeps only what its fold needs and the
// places of the lines it will read again), caches that index by the
// file's identity and version, extends it when the file only grew, and
// reads single lines back by their place. A log may be raw or framed
// (compressed as independent frames that each hold whole lines: zstd);
// a format brings its [Frames], so this package knows nothing of any
// format or compression and imports only the standard library. The
// repository's docs/jsonlog.md tells the rules at length.
//
// Files are hostile: only regular files are opened, without blocking (a
// FIFO never hangs a read) and without following a link in the last
// element; a log bigger than [Limits.MaxLogBytes] is [ErrTooLarge], and
// so is a framed log whose text passes what its Frames allow for its
// size; a line longer than [Limits.MaxLineBytes] is passed to the
// indexer as [Indexer.Long] (never held); a last line with no newline is
// a torn tail, not yet written, and is left for the next read; the whole
// lines of a torn last frame are fed to a fork of the index ([Forker]),
// never kept as read; a file read while it grows is read up to the size
// it had when opened, and one rewritten while it is read is [ErrChanged].
//
// # Appends and rewrites
//
// A cached index is extended, from the end of its last complete line
// (or frame), when the file is the same one (device and inode) and
// strictly bigger, its first 4 KiB hash as they did and the 64 bytes
// before that end are unchanged. Anything else (a shrink, a new inode, a
// same-size change, a change of either byte range) is read again from
// the start. A rewrite in place into a bigger file that keeps both
// ranges and changes bytes between them is not seen at this cost; a
// line read back is checked to still end where the index says.
//
// # Memory
//
// A read holds one 64 KiB buffer, at most one line gathered (twice
// MaxLineBytes, its buffer doubling) and, for a framed log, the
// compressed bytes it reads; reads running at once hold at most
// [Limits.ReadBytes]. Between reads the cache holds at most CacheBytes
// of indexes, each counted as its [Indexer.Size] plus [EntryOverhead]
// and 16 bytes a frame; the least recently used go first.
package jsonlog

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
)

// Sentinel errors. Every error of this package wraps one of them in a
// *[FileError] naming the file.
var (
	// ErrNotRegular: the path is a FIFO, device, directory, socket or
	// symbolic link.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the log is bigger than MaxLogBytes.
	ErrTooLarge = errors.New("log too large")
	// ErrChanged: the file changed in a way a line read back cannot
	// follow (replaced, shrunk or rewritten since it was indexed).
	ErrChanged = errors.New("log changed since it was read")
	// ErrCorrupt: a framed log's bytes are not frames, or a whole frame
	// does not end with a whole line.
	ErrCorrupt = errors.New("log corrupt")
	// ErrUnreadable: the file could not be opened or read; the system's
	// error is wrapped too (errors.Is(err, fs.ErrNotExist) and
	// fs.ErrPermission work).
	ErrUnreadable = errors.New("cannot read log")
)

var errLink = errors.New("is a symbolic link")

// FileError is an error about one log file.
type FileError struct {
	// Path is the file.
	Path string
	// Err is a sentinel error, possibly joined with the system's.
	Err error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the sentinel (and the cause joined to it).
func (e *FileError) Unwrap() error { return e.Err }

func fileErr(path string, sentinel error, cause error) *FileError {
	if cause == nil {
		return &FileError{Path: path, Err: sentinel}
	}
	return &FileError{Path: path, Err: fmt.Errorf("%w: %w", sentinel, cause)}
}

// Key is a file's identity (Dev, Ino; zero where the system has none)
// and version (Size, Mtime, Ctime, Mode).
type Key struct {
	Dev, Ino           uint64
	Size, Mtime, Ctime int64
	Mode               fs.FileMode
}

// SameFile reports whether k and o are keys of the same file, as far as
// the system tells.
func (k Key) SameFile(o Key) bool { return k.Dev == o.Dev && k.Ino == o.Ino }

// String is a token that changes whenever the version does.
func (k Key) String() string {
	return strconv.FormatUint(k.Dev, 36) + "." + strconv.FormatUint(k.Ino, 36) + "." +
		strconv.FormatInt(k.Size, 36) + "." + strconv.FormatInt(k.Mtime, 36) + "." +
		strconv.FormatInt(k.Ctime, 36) + "." + strconv.FormatUint(uint64(k.Mode), 36)
}

// Limits bound what a [Log] reads and keeps.
type Limits struct {
	// MaxLogBytes is the largest log read (DefaultMaxLogBytes when 0).
	MaxLogBytes int64
	// MaxLineBytes is the longest line handed to an indexer
	// (DefaultMaxLineBytes when 0).
	MaxLineBytes int
	// CacheBytes is what the cache of indexes may hold between reads
	// (DefaultCacheBytes when 0); the least recently used go first.
	CacheBytes int64
	// ReadBytes bounds what reads running at once may hold
	// (DefaultReadBytes when 0): each counts its buffer, the longest line
	// it may hold and a framed log's compressed bytes; one over it alone
	// runs alone.
	ReadBytes int64
}

// Defaults of [Limits].
const (
	DefaultMaxLogBytes  = 1 << 30
	DefaultMaxLineBytes = 16 << 20
	DefaultCacheBytes   = 64 << 20
	DefaultReadBytes    = 256 << 20
	// EntryOverhead is what the cache counts for an entry beside its
	// indexer: the path, the key, the head hash and the tail bytes.
	EntryOverhead = 256
)

const (
	headBytes = 4 << 10 // hashed to tell an append from a rewrite
	tailBytes = 64      // kept from before the end of what was read
	bufBytes  = 64 << 10
)

func (l Limits) withDefaults() Limits {
	if l.MaxLogBytes <= 0 {
		l.MaxLogBytes = DefaultMaxLogBytes
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.CacheBytes <= 0 {
		l.CacheBytes = DefaultCacheBytes
	}
	if l.ReadBytes <= 0 {
		l.ReadBytes = DefaultReadBytes
	}
	return l
}

// Indexer is a format's rules over the engine: it is fed every complete
// line of a log once, in order, and keeps what its fold needs. After an
// append the same indexer is fed the new lines, so it must keep whatever
// state a later line may need.
type Indexer interface {
	// Line is one complete line without its newline: n is its 1-based
	// number, at its place (a raw log's byte offset; in a framed log a
	// packed frame and offset), which [Lines.Line] takes back. line is
	// only valid during the call.
	Line(n int, at int64, line []byte)
	// Long is a line over MaxLineBytes, which is not read: length is its
	// length, except in a whole frame of a framed log, where it is handed
	// over as soon as it passes the cap (length is what was read of it
	// then) so that a bomb costs no more than the cap.
	Long(n int, at int64, length int64)
	// Size is about how many bytes the indexer holds.
	Size() int64
}

// Stopper is an [Indexer] that may want no more lines (a log it found
// corrupt): the scan stops after the line that made Stopped true, and
// lines appended later are not fed to it.
type Stopper interface {
	Stopped() bool
}

// Forker is an [Indexer] that can be copied. The whole lines of a framed
// log's torn last frame (being written) are fed to a fork, never to the
// cached index: they are readable now, but the writer may still change
// the frame. Fork must return an indexer that shares nothing the fork's
// lines change.
type Forker[T Indexer] interface {
	Fork() T
}

// Log reads logs of one format through indexers made by its constructor
// and caches one index per path. It is safe for concurrent use; an
// indexer is only used by one goroutine at a time.
type Log[T Indexer] struct {
	lim     Limits
	newIx   func(path string) T
	framing func(path string) Frames
	reading *gate

	mu    sync.Mutex
	files map[string]*entry[T]
	order list.List // the entries, most recently used first
	used  int64
}

// entry is one path's cached index.
type entry[T Indexer] struct {
	mu   sync.Mutex
	ok   bool // an index was built
	snap Snapshot
	ix   T
	sc   framedScan // a framed log's frames
	size int64      // what the cache counts for it
	path string
	el   *list.Element // in Log.order
	// fork and forkSnap hold a torn frame's lines over ix, for snap.Key.
	fork     T
	forked   bool
	forkSnap Snapshot
}

// New returns a Log whose indexers are made by newIndexer, given the
// path of the log each will index.
func New[T Indexer](lim Limits, newIndexer func(path string) T) *Log[T] {
	lim = lim.withDefaults()
	return &Log[T]{lim: lim, newIx: newIndexer, files: map[string]*entry[T]{}, reading: newGate(lim.ReadBytes)}
}

// SetFraming makes the logs for which framing returns non-nil framed
// logs (zstd, say), read through those Frames. Call it before the first
// read.
func (l *Log[T]) SetFraming(framing func(path string) Frames) { l.framing = framing }

// Limits returns the effective limits.
func (l *Log[T]) Limits() Limits { return l.lim }

// PeakReadBytes is the most that reads running at once have held, as
// counted against ReadBytes.
func (l *Log[T]) PeakReadBytes() int64 {
	l.reading.mu.Lock()
	defer l.reading.mu.Unlock()
	return l.reading.peak
}

func (l *Log[T]) framesOf(path string) Frames {
	if l.framing == nil {
		return nil
	}
	return l.framing(path)
}

// Use brings path's index up to date with the file (reading only what
// was appended when it merely grew) and calls fn with it while holding
// it: fn must not keep the indexer, only what it derives from it.
func (l *Log[T]) Use(ctx context.Context, path string, fn func(ix T, s Snapshot) error) error {
	e := l.entryOf(path)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := l.update(ctx, path, e); err != nil {
		if !e.ok {
			l.drop(e) // nothing worth keeping: not counted, not kept
		}
		return err
	}
	var err error
	if e.forked {
		err = fn(e.fork, e.forkSnap)
	} else {
		err = fn(e.ix, e.snap)
	}
	l.account(path, e)
	return err
}

func (l *Log[T]) entryOf(path string) *entry[T] {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.files[path]
	if e == nil {
		e = &entry[T]{path: path}
		e.el = l.order.PushFront(e)
		l.files[path] = e
	} else {
		l.order.MoveToFront(e.el)
	}
	return e
}

// remove takes e out of the cache. The caller holds l.mu.
func (l *Log[T]) remove(e *entry[T]) {
	if l.files[e.path] == e {
		l.used -= e.size
		delete(l.files, e.path)
		l.order.Remove(e.el)
	}
}

// account charges e's new size to the cache and drops the least recently
// used other entries while the cache holds more than its budget.
func (l *Log[T]) account(path string, e *entry[T]) {
	size := e.ix.Size() + EntryOverhead + int64(len(e.sc.frames))*16
	if e.forked {
		size += e.fork.Size()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files[path] != e {
		return // dropped meanwhile: it is not in the cache to count
	}
	l.used += size - e.size
	e.size = size
	for l.used > l.lim.CacheBytes && l.order.Len() > 0 {
		l.remove(l.order.Back().Value.(*entry[T])) // e last: alone over the budget, it is not kept
	}
}

// Forget drops every cached index.
func (l *Log[T]) Forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.files = map[string]*entry[T]{}
	l.order.Init()
	l.used = 0
}

// drop forgets e, if it is still the cached entry of its path.
func (l *Log[T]) drop(e *entry[T]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.remove(e)
}

// Drop forgets path's cached index.
func (l *Log[T]) Drop(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.files[path]; e != nil {
		l.remove(e)
	}
}

// Open opens path as a log: a regular file, not a link, within
// MaxLogBytes. The caller closes the file.
func (l *Log[T]) Open(path string) (*os.File, Key, error) {
	return open(path, l.lim.MaxLogBytes)
}

func open(path string, maxBytes int64) (*os.File, Key, error) {
	f, err := openFile(path)
	if err != nil {
		if errors.Is(err, errLink) || isLinkErr(path, err) {
			return nil, Key{}, fileErr(path, ErrNotRegular, errLink)
		}
		return nil, Key{}, fileErr(path, ErrUnreadable, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Key{}, fileErr(path, ErrUnreadable, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, Key{}, fileErr(path, ErrNotRegular, fmt.Errorf("it is %s", Kind(fi.Mode())))
	}
	if fi.Size() > maxBytes {
		f.Close()
		return nil, Key{}, fileErr(path, ErrTooLarge, fmt.Errorf("%d bytes, over the cap of %d", fi.Size(), maxBytes))
	}
	return f, KeyOf(fi), nil
}

// Kind names what a file that is not a regular file is, for people:
// "a FIFO", "a directory", ….
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t == 0:
		return "a regular file"
	}
	return "a special file (" + m.Type().String() + ")"
}

// isLinkErr reports whether opening path failed because its last
// element is a symbolic link (O_NOFOLLOW's ELOOP).
func isLinkErr(path string, err error) bool {
	if err == nil {
		return false
	}
	fi, lerr := os.Lstat(path)
	return lerr == nil && fi.Mode()&os.ModeSymlink != 0
}

// update brings e up to date with the file at path.
func (l *Log[T]) update(ctx context.Context, path string, e *entry[T]) error {
	f, key, err := l.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if e.ok {
		key = settled(f, key, e.snap.Key)
	}
	if e.ok && key == e.snap.Key {
		return nil
	}
	fr := l.framesOf(path)
	from := int64(0)
	if e.ok && grewOnly(key, e.snap.Key, f, &e.snap) {
		from = e.snap.End
	} else {
		var zero T
		e.ix, e.fork, e.ok, e.forked = l.newIx(path), zero, false, false
		e.snap, e.sc = Snapshot{Path: path, frames: fr}, framedScan{}
	}
	e.forked = false
	if st, ok := any(e.ix).(Stopper); ok && st.Stopped() && from > 0 {
		e.snap.Key, e.ok = key, true // it wants no more lines
		return nil
	}
	weight := int64(bufBytes) + min(int64(l.lim.MaxLineBytes), key.Size-from)
	if fr != nil {
		weight += key.Size - from
	}
	took, err := l.reading.acquire(ctx, weight)
	if err != nil {
		return fileErr(path, ErrUnreadable, err)
	}
	defer l.reading.release(took)
	if err := l.scan(ctx, f, fr, from, key, e); err != nil {
		e.ok = false
		return readErr(path, err)
	}
	// A file rewritten while it was read may have given bytes of two
	// versions: the read is not kept. One that only grew is what an
	// append makes (the bytes read are where they were).
	if fi, err := f.Stat(); err != nil || !grewOnly(settled(f, KeyOf(fi), key), key, f, &e.snap) {
		e.ok = false
		return fileErr(path, ErrChanged, errors.New("it was rewritten while it was read"))
	}
	e.ok = true
	return nil
}

// settled is f's key, stat-ed again while it differs from want only in
// its times at the same size: a write moves the file's times before its
// size, so a stat in the midst of an append sees a same-size change that
// is not one. A rewrite at the same size stays what it is.
func settled(f *os.File, key, want Key) Key {
	for i := 0; i < 64 && key != want && key.SameFile(want) && key.Size == want.Size; i++ {
		runtime.Gosched()
		fi, err := f.Stat()
		if err != nil {
			break
		}
		key = KeyOf(fi)
	}
	return key
}

// readErr is the *FileError of a read of path that failed: one already
// made as it is, a cap or corruption found as it is, anything else (the
// system's error, a cancellation) as ErrUnreadable wrapping it.
func readErr(path string, err error) error {
	var fe *FileError
	switch {
	case errors.As(err, &fe):
		return err
	case errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTooLarge):
		return &FileError{Path: path, Err: err}
	}
	return fileErr(path, ErrUnreadable, err)
}

// grewOnly reports whether the file f, now of key now and read at key
// was, is unchanged or only had bytes appended since: the same file,
// bigger, with s's first bytes and bytes before its end where they were.
func grewOnly(now, was Key, f *os.File, s *Snapshot) bool {
	return now == was || now.SameFile(was) && now.Size > was.Size && s.unchangedIn(f)
}

// scan reads f from from to key's size into e.
func (l *Log[T]) scan(ctx context.Context, f *os.File, fr Frames, from int64, key Key, e *entry[T]) error {
	if fr == nil {
		end, lines, inLong, err := scanRaw(ctx, f, from, key.Size, e.snap.Lines, l.lim.MaxLineBytes, from > 0 && e.snap.inLong, e.ix)
		if err != nil {
			return err
		}
		e.snap.Key, e.snap.End, e.snap.Lines, e.snap.inLong = key, end, lines, inLong
		return e.snap.stamp(f)
	}
	e.sc.torn = nil
	fork, forked, err := scanFrames(ctx, f, fr, from, key.Size, l.lim.MaxLineBytes, &e.sc, e.ix)
	if err != nil {
		return err
	}
	e.snap.Key, e.snap.End, e.snap.Lines = key, e.sc.end, e.sc.lines
	e.snap.offs = e.sc.frames[:len(e.sc.frames):len(e.sc.frames)]
	if err := e.snap.stamp(f); err != nil {
		return err
	}
	if forked {
		e.fork, e.forked = fork, true
		e.forkSnap = e.snap
		e.forkSnap.offs = append(e.snap.offs, *e.sc.torn) // a copy: offs is clipped
		e.forkSnap.Lines = e.sc.tornLines
		sum := e.sc.tornSum
		e.forkSnap.tornSum = &sum
	}
	return nil
}

// stamp records the hash of the file's first bytes (up to End) and the
// bytes before End.
func (s *Snapshot) stamp(f *os.File) error {
	n := min(s.End, headBytes)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	s.head, s.nhead = sha256.Sum256(buf), int(n)
	t := min(s.End, tailBytes)
	s.tail = make([]byte, t)
	if _, err := f.ReadAt(s.tail, s.End-t); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// unchangedIn reports whether f still holds, where s read them, the
// first bytes and the bytes before End.
func (s *Snapshot) unchangedIn(f *os.File) bool {
	buf := make([]byte, s.nhead)
	if _, err := f.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	if sha256.Sum256(buf) != s.head {
		return false
	}
	tail := make([]byte, len(s.tail))
	if _, err := f.ReadAt(tail, s.End-int64(len(tail))); err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	return bytes.Equal(tail, s.tail)
}

// Head reads the first line of the log at path, under the same rules as
// a read, and no more of the file than that line needs (of a framed log,
// its first frame until the line ends, and never more than maxLine plus
// 256 KiB of it). A log with no whole first line yet gives nil; a first
// line over maxLine bytes is ErrTooLarge.
func (l *Log[T]) Head(ctx context.Context, path string, maxLine int) ([]byte, Key, error) {
	f, key, err := open(path, math.MaxInt64) // a log over the cap still has a header to list

	if err != nil {
		return nil, Key{}, err
	}
	defer f.Close()
	var line []byte
	found := false
	take := func(p []byte) error {
		i := bytes.IndexByte(p, '\n')
		if i >= 0 {
			p, found = p[:i], true
		}
		if len(line)+len(p) > maxLine {
			return fileErr(path, ErrTooLarge, fmt.Errorf("a first line over %d bytes", maxLine))
		}
		line = append(line, p...)
		if found {
			return errEnough
		}
		return nil
	}
	if fr := l.framesOf(path); fr != nil {
		err = headFrame(ctx, f, fr, key.Size, maxLine, take)
	} else {
		err = headRaw(f, key.Size, take)
	}
	if err != nil && !errors.Is(err, errEnough) {
		return nil, key, readErr(path, err)
	}
	if !found {
		return nil, key, nil
	}
	return line, key, nil
}

// headRaw passes a raw log's bytes to take, a piece at a time, until
// take has enough.
func headRaw(f *os.File, size int64, take func([]byte) error) error {
	buf := make([]byte, 4<<10)
	for off := int64(0); off < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if n > 0 {
			if terr := take(buf[:n]); terr != nil {
				return terr
			}
			off += int64(n)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if n == 0 {
			return nil // the file shrank under the read: no whole line yet
		}
	}
	return nil
}

// headSlack is what Head reads of a framed log beyond the longest first
// line it takes: a frame's header and the rest of the block the line
// ends in (a zstd block holds at most 128 KiB).
const headSlack = 256 << 10

// headFrame passes the text of a framed log's first frame to take,
// reading the file until that frame is whole, the file ends, or it has
// read maxLine+headSlack bytes: a first line is in a frame's first
// bytes, and the rest of a huge frame is not read.
func headFrame(ctx context.Context, f *os.File, fr Frames, size int64, maxLine int, take func([]byte) error) error {
	var b []byte
	limit := min(size, int64(maxLine)+headSlack)
	for want := min(limit, 64<<10); ; want = min(limit, 2*want) {
		b = make([]byte, want)
		got, err := f.ReadAt(b, 0)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		b = b[:got] // shorter when the file shrank under the read
		n, whole, err := fr.Frame(b)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if whole && n > 0 && n <= len(b) {
			b = b[:n] // a torn frame's length may be past the bytes there are
		}
		if whole || want == limit || int64(got) < want {
			break
		}
	}
	return fr.Decode(ctx, b, min(fr.MaxText(size), maxFrameText), take)
}

// Cached reports whether path's index is in the cache, and the bytes
// the cache counts for it.
func (l *Log[T]) Cached(path string) (int64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.files[path]
	if !ok {
		return 0, false
	}
	return e.size, true
}

// CacheStats returns how many indexes the cache holds and the bytes it
// counts for them.
func (l *Log[T]) CacheStats() (entries int, bytes int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.files), l.used
}
