package dshlog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dshkit/mentions/sessionref"
	"github.com/klauspost/compress/zstd"
)

// maxHeaderLine bounds the header line listing reads.
const maxHeaderLine = 1 << 20

// checkDirs refuses a log whose project or session directory has become
// a symbolic link since it was listed: nothing below the root is
// followed.
func (s *Store) checkDirs(path string) error {
	if s.root == "" {
		return nil
	}
	sdir := filepath.Dir(path)
	for _, dir := range []string{filepath.Dir(sdir), sdir} {
		fi, err := os.Lstat(dir)
		if err != nil {
			return ioErr(path, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return notFollowed(dir)
		}
	}
	return nil
}

// openLog opens a log for reading: without blocking, without following a
// link, and only when what was opened is a regular file.
func (s *Store) openLog(path string) (*os.File, fileKey, error) {
	if err := s.checkDirs(path); err != nil {
		return nil, fileKey{}, err
	}
	open := openNoFollow
	if s.root == "" {
		open = openNonBlocking // OpenFile's path may be a link the caller chose
	}
	f, err := open(path)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && s.root != "" {
			return nil, fileKey{}, notFollowed(path)
		}
		return nil, fileKey{}, ioErr(path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileKey{}, ioErr(path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fileKey{}, &LogError{Path: path, Err: ErrNotRegular, Detail: fmt.Sprintf("a %v, not a regular file", fi.Mode().Type())}
	}
	return f, fileKeyOf(fi), nil
}

// statKey is the key of path now, without opening it.
func (s *Store) statKey(path string) (fileKey, error) {
	if err := s.checkDirs(path); err != nil {
		return fileKey{}, err
	}
	stat := os.Lstat
	if s.root == "" {
		stat = os.Stat // OpenFile's path may be a link the caller chose
	}
	fi, err := stat(path)
	if err != nil {
		return fileKey{}, ioErr(path, err)
	}
	return fileKeyOf(fi), nil
}

// header reads (or recalls) a log's header. The cache key has the file's
// ctime and mode, so an error (a permission, a header being written) is
// not kept past a change of the file.
func (s *Store) header(path string, fi os.FileInfo) Info {
	key := fileKeyOf(fi)
	s.mu.Lock()
	c, ok := s.headers[path]
	s.mu.Unlock()
	if ok && c.key == key {
		return c.info
	}
	info := Info{Path: path}
	line, opened, err := s.firstLine(path)
	if err == nil {
		var h header
		h, info.Warnings, err = parseHeader(path, line)
		if err == nil {
			info.Header = headerOf(h)
			if h.ParentSession != nil {
				info.Parent = *h.ParentSession
			}
		}
	}
	info.Err = err
	if opened != (fileKey{}) {
		key = opened
	}
	s.mu.Lock()
	s.headers[path] = cachedHeader{key, info}
	s.mu.Unlock()
	return info
}

// firstLine reads the header line: the first line of a raw log, or the
// start of the first zstd frame's text, streamed, without reading the
// rest of the log.
func (s *Store) firstLine(path string) ([]byte, fileKey, error) {
	f, key, err := s.openLog(path)
	if err != nil {
		return nil, fileKey{}, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".zstd") {
		d := decoders.Get().(*zstd.Decoder)
		defer decoders.Put(d)
		if err := d.Reset(bufio.NewReaderSize(f, 16<<10)); err != nil {
			return nil, key, logErr(path, 1, ErrHeader, "the first zstd frame is unreadable: %v", err)
		}
		defer d.Reset(nil)
		r = d
	}
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxHeaderLine), 4096).ReadBytes('\n')
	if err != nil {
		if strings.HasSuffix(path, ".zstd") {
			return nil, key, logErr(path, 1, ErrHeader, "the first zstd frame is missing, unreadable or has no whole line")
		}
		return nil, key, logErr(path, 1, ErrHeader, "no complete header line")
	}
	return line[:len(line)-1], key, nil
}

// readAll reads the file's bytes [from, size).
func readAll(f *os.File, from, size int64) ([]byte, error) {
	buf := make([]byte, max(size-from, 0))
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// appendOnly reports whether bytes past offset can be read as an
// append: the file still holds mark just before offset, and its first
// bytes still hash to head (see headSum).
func appendOnly(f *os.File, offset int64, mark []byte, head uint64) bool {
	return markThere(f, offset, mark) && headSum(f, offset) == head
}

// markThere reports whether the file holds mark just before offset.
func markThere(f *os.File, offset int64, mark []byte) bool {
	if offset < int64(len(mark)) {
		return false
	}
	got := make([]byte, len(mark))
	n, _ := f.ReadAt(got, offset-int64(len(mark)))
	return n == len(mark) && bytes.Equal(got, mark)
}

// headLen is how many of a log's first bytes are hashed to tell an
// append from a rewrite, besides the markLen bytes before the stop.
const headLen = 4 << 10

// headSeed seeds the hashes of log heads (compared only within a process).
var headSeed = maphash.MakeSeed()

// headSum hashes the file's first min(headLen, offset) bytes.
func headSum(f io.ReaderAt, offset int64) uint64 {
	return maphash.Bytes(headSeed, readRange(f, 0, min(headLen, offset)))
}

// changed reports whether the open file's key is no longer key.
func changed(f *os.File, key fileKey) bool {
	fi, err := f.Stat()
	return err != nil || fileKeyOf(fi) != key
}

// retry waits a little before reading a file that changed while read:
// retryPause more at each attempt.
func retry(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(attempt+1) * retryPause):
		return nil
	}
}

// retryPause is the first wait of retry (tests set it to nothing).
var retryPause = 5 * time.Millisecond

// load returns the parsed log, re-reading only what changed: a file that
// grew (same file, the bytes before the last stop unchanged) is decoded
// from there, anything else in full. A file that changes while it is read
// is read again.
func (s *Store) load(ctx context.Context, path string) (*parsed, error) {
	return whileChanged(ctx, &path, func() (*parsed, error) {
		if err := ctx.Err(); err != nil {
			return nil, ioErr(path, err)
		}
		key, err := s.statKey(path)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		c := s.logs.get(path)
		s.mu.Unlock()
		if c != nil && c.key == key {
			return c.p, nil
		}
		p, key, err := s.parseFile(ctx, path, c)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.logs.put(path, key, p)
		s.mu.Unlock()
		return p, nil
	})
}

// whileChanged runs read, again (up to five times, a little later each
// time) while it fails with errChanged; a file that goes on changing is
// an error naming *path.
func whileChanged[T any](ctx context.Context, path *string, read func() (T, error)) (T, error) {
	var none T
	for attempt := 0; ; attempt++ {
		v, err := read()
		if !errors.Is(err, errChanged) {
			return v, err
		}
		if attempt >= 5 {
			return none, ioErr(*path, err)
		}
		if err := retry(ctx, attempt); err != nil {
			return none, ioErr(*path, err)
		}
	}
}

var errChanged = errors.New("the file changed while it was read")

// parseFile opens and decodes the log, from where c stopped when the file
// only grew since.
func (s *Store) parseFile(ctx context.Context, path string, c *lruEntry) (*parsed, fileKey, error) {
	f, key, err := s.openLog(path)
	if err != nil {
		return nil, key, err
	}
	defer f.Close()
	// Same size and a new key (a time, the mode) is a rewrite in place, not
	// an append: read in full.
	grew := c != nil && key.grownFrom(c.key) && c.p.err == nil && !c.p.stopped &&
		appendOnly(f, c.p.committed, c.p.mark, c.p.headSum)
	base := int64(0)
	if grew {
		base = c.p.committed
	}
	p, err := s.readLog(ctx, f, path, key, base, false, func(isZstd bool) *parsed {
		if grew {
			return &parsed{path: c.p.path, zstd: c.p.zstd, head: c.p.head, warnings: c.p.warnings,
				events: c.p.events.clipped(), committed: c.p.committed, mark: c.p.mark,
				decoded: c.p.decoded, line: c.p.line, inherited: true}
		}
		return &parsed{path: path, zstd: isZstd}
	})
	return p, key, err
}

// readLog decodes the open log f, whose key is key, from base on into the
// parse start makes (told whether the log is zstd), under the store's
// read budget: a raw log streamed from the file, never held whole; a
// zstd log's compressed bytes read first. The file must still be what
// was read — unchanged, or, with appends, only appended to (a live
// session) — else errChanged. It sets the parse's key and head hash.
func (s *Store) readLog(ctx context.Context, f *os.File, path string, key fileKey, base int64, appends bool, start func(isZstd bool) *parsed) (*parsed, error) {
	if key.size > s.maxLogBytes {
		return nil, logErr(path, 0, ErrTooLarge, "%d bytes on disk, over the cap of %d", key.size, s.maxLogBytes)
	}
	var data []byte // a zstd log's bytes from base on
	weight := key.size - base
	isZstd := strings.HasSuffix(path, ".zstd") || bytes.HasPrefix(readRange(f, 0, 4), zstdMagic)
	if isZstd {
		var err error
		if data, err = readAll(f, base, key.size); err != nil {
			return nil, ioErr(path, err)
		}
		weight = int64(len(data)) + declaredSize(data, s.capFor(true, key.size))
	}
	took, err := s.reading.acquire(ctx, weight)
	if err != nil {
		return nil, ioErr(path, err)
	}
	defer s.reading.release(took)
	p := start(isZstd)
	var head uint64
	if appends {
		head = headSum(f, key.size)
	}
	fd := feeder{ctx: ctx, cap: s.capFor(p.zstd, key.size)}
	if p.zstd {
		err = p.feed(fd, data, base) // and finish
	} else {
		err = p.feedRaw(fd, f, base, key.size)
	}
	if afterRead != nil {
		afterRead(path)
	}
	if err == nil && changed(f, key) && !(appends && grewOnly(f, key, p, head)) {
		return nil, errChanged
	}
	if err == nil && !p.zstd {
		err = p.finish(fd, nil)
	}
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, s.capErr(path, p.zstd, key.size)
		}
		return nil, ioErr(path, err)
	}
	p.headSum, p.key = headSum(f, p.committed), key
	s.mu.Lock()
	s.costs[path] = 3 * p.longest // the line buffer, doubled as it grew, or a zstd frame's text
	s.mu.Unlock()
	return p, nil
}

// afterRead, when set (tests), runs between a read and its check that
// the file is still the one read.
var afterRead func(path string)

// title returns the log's last session/title record, scanning only what
// was not scanned before.
func (s *Store) title(ctx context.Context, path string) (*sessionref.Title, error) {
	for attempt := 0; ; attempt++ {
		key, err := s.statKey(path)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		e := s.titles[path]
		s.mu.Unlock()
		if e != nil && e.key == key {
			return e.result()
		}
		ne, err := s.scanTitle(ctx, path, e)
		if errors.Is(err, errChanged) && attempt < 5 {
			if err := retry(ctx, attempt); err != nil {
				return nil, ioErr(path, err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.titles[path] = ne
		s.mu.Unlock()
		return ne.result()
	}
}

func (e *titleEntry) result() (*sessionref.Title, error) {
	if e.err != nil {
		return nil, e.err
	}
	if e.tail != nil {
		return e.tail, nil
	}
	at := e.tailLong
	if at < 0 && e.title == nil {
		at = e.tooLong
	}
	if at >= 0 {
		// The last title record is too long to read: the title is not
		// known, and an earlier one must not stand in for it.
		return nil, logErr(e.path, 0, ErrTooLarge, "the session/title record at decoded byte %d is longer than %d bytes", at, maxTitleLine)
	}
	return e.title, nil
}

// scanTitle scans the log for title records, from where prev stopped
// when the file only grew since. Cancellation and a file changing under
// the scan are returned; what is wrong with the log is kept in the entry.
func (s *Store) scanTitle(ctx context.Context, path string, prev *titleEntry) (*titleEntry, error) {
	f, key, err := s.openLog(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e := &titleEntry{path: path, key: key, tooLong: -1, tailLong: -1}
	if prev != nil && prev.err == nil && key.grownFrom(prev.key) &&
		appendOnly(f, prev.committed, prev.mark, prev.headSum) {
		e.committed, e.mark, e.title, e.decoded, e.tooLong = prev.committed, prev.mark, prev.title, prev.decoded, prev.tooLong
	}
	scanned := e.committed // raw: file offset; zstd: decoded offset
	if strings.HasSuffix(path, ".zstd") {
		scanned = e.decoded
	}
	sc := newTitleScan(e.title, e.tooLong, scanned)
	isZstd := strings.HasSuffix(path, ".zstd")
	if key.size > s.maxLogBytes {
		e.err = logErr(path, 0, ErrTooLarge, "%d bytes on disk, over the cap of %d", key.size, s.maxLogBytes)
		return e, nil
	}
	if isZstd {
		err = s.scanTitleZstd(ctx, f, e, sc)
	} else {
		err = scanTitleRaw(ctx, f, e, sc)
	}
	if err == nil && changed(f, key) {
		err = errChanged
	}
	switch {
	case err == nil:
	case errors.Is(err, errChanged):
		return nil, err
	case ctx.Err() != nil:
		return nil, ioErr(path, ctx.Err())
	case errors.Is(err, errTooLarge):
		e.err = s.capErr(path, isZstd, key.size)
	case errors.As(err, new(*lineErr)):
		e.err = logErr(path, 0, ErrTooLarge, "%v", err)
	default:
		e.err = logErr(path, 0, ErrCorrupt, "%v", err)
	}
	e.title, e.tooLong = sc.title, sc.tooLong
	e.headSum = headSum(f, e.committed)
	return e, nil
}

// scanBufs are the read buffers of raw title scans.
var scanBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// scanTitleRaw streams a raw log from e.committed to its end.
func scanTitleRaw(ctx context.Context, f *os.File, e *titleEntry, sc *titleScan) error {
	bp := scanBufs.Get().(*[]byte)
	defer scanBufs.Put(bp)
	buf := *bp
	off, lastNL := e.committed, e.committed-1
	for off < e.key.size {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := f.ReadAt(buf[:min(int64(len(buf)), e.key.size-off)], off)
		if n > 0 {
			chunk := buf[:n]
			sc.write(chunk)
			if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
				lastNL = off + int64(i)
			}
			off += int64(n)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if n == 0 {
			break
		}
	}
	e.committed = lastNL + 1
	if e.committed > 0 {
		e.mark, _ = readAll(f, max(0, e.committed-markLen), e.committed)
	}
	return nil
}

// scanTitleZstd decodes a zstd log's frames from e.committed on, streamed
// through the scanner, the decoded bytes counted against the cap.
func (s *Store) scanTitleZstd(ctx context.Context, f *os.File, e *titleEntry, sc *titleScan) error {
	data, err := readAll(f, e.committed, e.key.size)
	if err != nil {
		return err
	}
	bud := &budget{used: e.decoded, cap: s.capFor(true, e.key.size)}
	stop := ctx.Err
	var guard lineGuard // blank lines are the reader's concern, not the scan's
	committedUsed := bud.used
	end, err := walkFrames(data, func(fr frame, b []byte) error {
		if !fr.complete {
			tsc := newTitleScan(nil, -1, bud.used)
			err := decodeFrame(fr, b, bud, stop, func(p []byte) error {
				if err := guard.check(p); err != nil {
					return err
				}
				tsc.write(p)
				return nil
			})
			e.tail, e.tailLong = tsc.title, tsc.tooLong
			return err
		}
		err := decodeFrame(fr, b, bud, stop, func(p []byte) error {
			if err := guard.check(p); err != nil {
				return err
			}
			sc.write(p)
			return nil
		})
		committedUsed = bud.used
		return err
	})
	if err != nil {
		return err
	}
	e.decoded = committedUsed
	if end > 0 {
		e.mark = bytes.Clone(data[max(0, end-markLen):end])
		e.committed += int64(end)
	}
	return nil
}
