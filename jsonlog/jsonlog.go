// Package jsonlog is the one engine under the agent log stores: it reads
// an append-only JSON Lines log in one pass, hands each complete line to
// a format's [Indexer] (which keeps only what its fold needs and the
// offsets of the lines it will read again), caches that index by the
// file's identity and version, extends it when the file only grew, and
// reads single lines back by offset. It knows nothing of any format and
// imports only the standard library.
//
// Files are hostile: only regular files are opened, without blocking (a
// FIFO never hangs a read) and without following a link in the last
// element; a log bigger than [Limits.MaxLogBytes] is [ErrTooLarge]; a
// line longer than [Limits.MaxLineBytes] is passed to the indexer as
// [Indexer.Long] (never held); a last line with no newline is a torn
// tail, not yet written, and is left for the next read; a file read
// while it grows is read up to the size it had when opened.
//
// # Appends and rewrites
//
// A cached index is extended, from the end of its last complete line,
// when the file is the same one (device and inode) and strictly bigger,
// its first 4 KiB hash as they did and the 64 bytes before that end are
// unchanged. Anything else (a shrink, a new inode, a same-size change, a
// change of either byte range) is read again from the start. A rewrite
// in place into a bigger file that keeps both ranges and changes bytes
// between them is not seen at this cost; a line read back is checked to
// still end where the index says.
//
// # Memory
//
// A read holds one 64 KiB buffer and at most one line (MaxLineBytes).
// Between reads the cache holds at most CacheBytes of indexes, each
// counted as its [Indexer.Size] plus [EntryOverhead].
package jsonlog

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
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
	// (DefaultCacheBytes when 0).
	CacheBytes int64
}

// Defaults of [Limits].
const (
	DefaultMaxLogBytes  = 1 << 30
	DefaultMaxLineBytes = 16 << 20
	DefaultCacheBytes   = 64 << 20
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
	return l
}

// Indexer is a format's rules over the engine: it is fed every complete
// line of a log once, in order, and keeps what its fold needs. After an
// append the same indexer is fed the new lines, so it must keep whatever
// state a later line may need.
type Indexer interface {
	// Line is one complete line without its newline: n is its 1-based
	// number, off the offset of its first byte. line is only valid
	// during the call.
	Line(n int, off int64, line []byte)
	// Long is a line of length bytes (newline excluded) over
	// MaxLineBytes, which is not read.
	Long(n int, off int64, length int64)
	// Size is about how many bytes the indexer holds.
	Size() int64
}

// Log reads logs of one format through indexers made by its constructor
// and caches one index per path. It is safe for concurrent use; an
// indexer is only used by one goroutine at a time.
type Log[T Indexer] struct {
	lim   Limits
	newIx func() T

	mu    sync.Mutex
	files map[string]*entry[T]
	used  int64
}

// entry is one path's cached index.
type entry[T Indexer] struct {
	mu   sync.Mutex
	ok   bool // an index was built
	snap Snapshot
	ix   T
	size int64 // what the cache counts for it
}

// Snapshot says which bytes of which file an index was built from; it
// reads lines of them back.
type Snapshot struct {
	// Path is the file.
	Path string
	// Key is its identity and version when it was read.
	Key Key
	// End is the offset after the last complete line read.
	End int64
	// Lines is the number of complete lines read.
	Lines int
	head  [sha256.Size]byte
	nhead int
	tail  []byte
}

// New returns a Log whose indexers are made by newIndexer.
func New[T Indexer](lim Limits, newIndexer func() T) *Log[T] {
	return &Log[T]{lim: lim.withDefaults(), newIx: newIndexer, files: map[string]*entry[T]{}}
}

// Limits returns the effective limits.
func (l *Log[T]) Limits() Limits { return l.lim }

// Use brings path's index up to date with the file (reading only what
// was appended when it merely grew) and calls fn with it while holding
// it: fn must not keep the indexer, only what it derives from it.
func (l *Log[T]) Use(ctx context.Context, path string, fn func(ix T, s Snapshot) error) error {
	e := l.entryOf(path)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := l.update(ctx, path, e); err != nil {
		return err
	}
	err := fn(e.ix, e.snap)
	l.account(path, e)
	return err
}

func (l *Log[T]) entryOf(path string) *entry[T] {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.files[path]
	if e == nil {
		e = &entry[T]{}
		l.files[path] = e
	}
	return e
}

// account charges e's new size to the cache and drops other entries
// while the cache holds more than its budget.
func (l *Log[T]) account(path string, e *entry[T]) {
	size := e.ix.Size() + EntryOverhead
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files[path] != e {
		return // dropped meanwhile: it is not in the cache to count
	}
	l.used += size - e.size
	e.size = size
	for p, o := range l.files {
		if l.used <= l.lim.CacheBytes {
			break
		}
		if p == path || !o.mu.TryLock() {
			continue
		}
		l.used -= o.size
		delete(l.files, p)
		o.mu.Unlock()
	}
}

// Forget drops every cached index.
func (l *Log[T]) Forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.files = map[string]*entry[T]{}
	l.used = 0
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
		return nil, Key{}, fileErr(path, ErrNotRegular, fmt.Errorf("its type is %s", fi.Mode().Type()))
	}
	if fi.Size() > maxBytes {
		f.Close()
		return nil, Key{}, fileErr(path, ErrTooLarge, fmt.Errorf("%d bytes, over the cap of %d", fi.Size(), maxBytes))
	}
	return f, KeyOf(fi), nil
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
	if e.ok && key == e.snap.Key {
		return nil
	}
	from := int64(0)
	if e.ok && key.SameFile(e.snap.Key) && key.Size > e.snap.Key.Size && e.snap.unchangedIn(f) {
		from = e.snap.End
	} else {
		var zero T
		e.ix, e.ok = zero, false
		e.ix = l.newIx()
		e.snap = Snapshot{Path: path}
	}
	end, lines, err := scan(ctx, f, from, key.Size, e.snap.Lines, l.lim.MaxLineBytes, e.ix)
	if err != nil {
		e.ok = false
		return fileErr(path, ErrUnreadable, err)
	}
	e.snap.Key, e.snap.End, e.snap.Lines = key, end, lines
	if err := e.snap.stamp(f); err != nil {
		e.ok = false
		return fileErr(path, ErrUnreadable, err)
	}
	e.ok = true
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

// ReadLine reads back the line of length n (newline excluded) at off,
// after checking that the file is still the one indexed, no shorter, its
// bytes before End unchanged and the line still ending where it did.
func (s *Snapshot) ReadLine(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off+int64(n) >= s.End {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("no line of %d bytes at offset %d", n, off))
	}
	f, key, err := open(s.Path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if key != s.Key && (!key.SameFile(s.Key) || key.Size <= s.Key.Size) {
		return nil, fileErr(s.Path, ErrChanged, nil) // replaced, shrunk, or rewritten at its size
	}
	tail := make([]byte, len(s.tail))
	if _, err := f.ReadAt(tail, s.End-int64(len(tail))); err != nil || !bytes.Equal(tail, s.tail) {
		return nil, fileErr(s.Path, ErrChanged, nil)
	}
	buf := make([]byte, n+1)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, fileErr(s.Path, ErrUnreadable, err)
	}
	if buf[n] != '\n' {
		return nil, fileErr(s.Path, ErrChanged, fmt.Errorf("the line at offset %d no longer ends where it did", off))
	}
	return buf[:n], nil
}

// scan feeds ix the complete lines of f between from and size (the size
// the file had when opened: bytes appended meanwhile wait for the next
// read). A last line with no newline is left unread. It returns the
// offset after the last complete line and the count of lines so far.
func scan(ctx context.Context, f *os.File, from, size int64, lines, maxLine int, ix Indexer) (int64, int, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(f, from, size-from), bufBytes)
	off := from
	var long []byte // a line being assembled across buffer fills
	var longLen int64
	tooLong := false
	for {
		if lines&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		chunk, err := r.ReadSlice('\n')
		switch {
		case err == nil:
			lines++
			body := chunk[:len(chunk)-1]
			switch {
			case tooLong:
				ix.Long(lines, off, longLen+int64(len(body)))
			case long != nil && len(long)+len(body) > maxLine:
				ix.Long(lines, off, int64(len(long)+len(body)))
			case long != nil:
				ix.Line(lines, off, append(long, body...))
			case len(body) > maxLine:
				ix.Long(lines, off, int64(len(body)))
			default:
				ix.Line(lines, off, body)
			}
			off += longLen + int64(len(chunk))
			if long != nil {
				off += int64(len(long))
			}
			long, longLen, tooLong = nil, 0, false
		case errors.Is(err, bufio.ErrBufferFull):
			switch {
			case tooLong:
				longLen += int64(len(chunk))
			case len(long)+len(chunk) > maxLine:
				tooLong, longLen, long = true, int64(len(long)+len(chunk)), nil
			default:
				long = append(long, chunk...)
			}
		case errors.Is(err, io.EOF):
			return off, lines, nil // a torn tail, if any, is not yet written
		default:
			return 0, 0, err
		}
	}
}
