package sessionref

import (
	"context"
	"strings"
	"sync"
	"time"
)

// DefaultListerSessions is the number of sessions a [Lister] keeps the
// folded text of when NewLister is given no bound.
const DefaultListerSessions = 200_000

// Lister answers candidate queries exactly as [Resolver.ListCandidates]
// does, but keeps between queries the text each session is matched on:
// its id, working directory and label lowered as JavaScript lowers them,
// joined into one haystack. A picker asks once a keystroke; with a Lister
// a filtered query over 100,000 sessions costs the store's listing and
// title reads plus one substring scan a session, instead of lowering
// every title again. Hosts keep one Lister per picker (or per resolver)
// and call its ListCandidates where they would call the resolver's.
//
// An entry is reused only while the session's title has the same
// EventSeq and the same text and its working directory is unchanged, so
// a renamed session is folded again at once; comparing the text as well
// keeps a store that leaves EventSeq at 0 right.
//
// The Lister keeps at most its bound of sessions (each costs about twice
// len(id)+len(cwd)+len(title) bytes); sessions past the bound are folded
// on the fly, as the resolver does. Entries of sessions that are gone are
// dropped after the next query that visits every session (any query that
// matches fewer than its limit). It is safe for concurrent use.
type Lister struct {
	r   *Resolver
	max int

	mu    sync.Mutex
	gen   uint64
	cache map[string]*folded
	// slots is the entry at each position of the last listing: a store
	// that lists the same sessions in the same order again is matched
	// without hashing an id.
	slots []*folded

	// The last read of the store, reused for MaxAge (see SetMaxAge).
	maxAge  time.Duration
	now     func() time.Time
	readAt  time.Time // when the remembered read began
	target  string    // whose query it was: its own title is not read
	readGen uint64    // bumped by Forget and SetMaxAge: older reads are not remembered
	headers []SessionHeader
	titles  []TitleResult // aligned with headers
}

// SetMaxAge lets a filtered query reuse the Lister's last listing of the
// store and its titles while that read is younger than d, so the
// keystrokes of one burst of typing cost one substring scan a session and
// no store reads: a store without [TitleLister] otherwise answers one
// ListSessions and one title lookup a session on every keystroke. A
// session created, renamed or deleted meanwhile shows up (or goes) once
// the read is older than d. Zero, the default, reads the store every
// time, as [Resolver.ListCandidates] does. The empty query always reads
// the store.
func (l *Lister) SetMaxAge(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maxAge, l.headers, l.titles = d, nil, nil
	l.readGen++
}

// Forget drops the last read of the store, so the next query reads it
// again whatever MaxAge says: for a host that knows its sessions changed.
func (l *Lister) Forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.headers, l.titles = nil, nil
	l.readGen++
}

// recent returns the last read of the store when it is younger than
// MaxAge and was made for the same target; headers is nil otherwise. It
// also returns what remember needs to know the read it is given began
// now: the time and the generation. The slices are shared: callers only
// read them.
func (l *Lister) recent(target string) (headers []SessionHeader, titles []TitleResult, began time.Time, gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock()
	if l.maxAge <= 0 || l.headers == nil || target != l.target || now.Sub(l.readAt) >= l.maxAge {
		return nil, nil, now, l.readGen
	}
	return l.headers, l.titles, now, l.readGen
}

// remember keeps a read of the store, begun at began in generation gen,
// for recent. titles is aligned with headers, or (byOrder) with order,
// the positions of every session but the target's. A read begun before
// a Forget is dropped.
func (l *Lister) remember(target string, began time.Time, gen uint64, headers []SessionHeader, titles []TitleResult, byOrder bool, order []int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.maxAge <= 0 || gen != l.readGen {
		return
	}
	if byOrder {
		if len(titles) != len(order) {
			return
		}
		aligned := make([]TitleResult, len(headers))
		for i, h := range order {
			aligned[h] = titles[i]
		}
		titles = aligned
	}
	if len(titles) != len(headers) {
		return
	}
	l.readAt, l.target, l.headers, l.titles = began, target, headers, titles
}

func (l *Lister) clock() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

// folded is one session's haystack and what it was built from.
type folded struct {
	id     string
	seq    int64 // title EventSeq; -1 without a title
	label  string
	cwd    string
	hasCwd bool
	hay    string // lower(id) NUL lower(cwd) NUL lower(label)
	gen    uint64 // the last query that saw it
}

// NewLister returns a Lister over r that keeps the folded text of at most
// maxSessions sessions ([DefaultListerSessions] when maxSessions < 1).
func NewLister(r *Resolver, maxSessions int) *Lister {
	if maxSessions < 1 {
		maxSessions = DefaultListerSessions
	}
	return &Lister{r: r, max: maxSessions, cache: map[string]*folded{}}
}

// ListCandidates is [Resolver.ListCandidates] with the folded text kept
// between calls; the results and errors are the same.
func (l *Lister) ListCandidates(ctx context.Context, t Target, query string, limit int) ([]Candidate, error) {
	return l.r.listCandidates(ctx, t, query, limit, l)
}

// Len is the number of sessions whose folded text is kept.
func (l *Lister) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.cache)
}

// scan is a matching pass over one listing, holding the Lister's lock.
type scan struct {
	l       *Lister
	needle  string
	split   bool // the needle holds a NUL: match field by field
	touched int
}

func (l *Lister) begin(needle string, n int) *scan {
	l.mu.Lock()
	l.gen++
	if len(l.slots) != n {
		l.slots = make([]*folded, n)
	}
	return &scan{l: l, needle: needle, split: strings.IndexByte(needle, 0) >= 0}
}

// matches reports whether the session at position pos of the listing
// matches, through its kept haystack.
func (s *scan) matches(pos int, h *SessionHeader, title *Title, label string) bool {
	if s.split {
		return matches(s.needle, h, label)
	}
	seq := int64(-1)
	if title != nil {
		seq = title.EventSeq
	}
	var e *folded
	if pos < len(s.l.slots) && s.l.slots[pos] != nil && s.l.slots[pos].id == h.ID {
		e = s.l.slots[pos]
	} else {
		e = s.l.cache[h.ID]
	}
	if e == nil || e.seq != seq || e.label != label || e.hasCwd != (h.Cwd != nil) || h.Cwd != nil && e.cwd != *h.Cwd {
		hay := haystack(h, label)
		if e == nil && len(s.l.cache) >= s.l.max {
			return strings.Contains(hay, s.needle)
		}
		if e == nil {
			e = &folded{}
			s.l.cache[h.ID] = e
		}
		*e = folded{id: h.ID, seq: seq, label: label, hasCwd: h.Cwd != nil, hay: hay}
		if h.Cwd != nil {
			e.cwd = *h.Cwd
		}
	}
	if e.gen != s.l.gen {
		e.gen = s.l.gen
		s.touched++
	}
	if pos < len(s.l.slots) {
		s.l.slots[pos] = e
	}
	return strings.Contains(e.hay, s.needle)
}

// end releases the lock; after a pass over every session it drops the
// entries of sessions that were not listed.
func (s *scan) end(visitedAll bool) {
	l := s.l
	if visitedAll && s.touched < len(l.cache) {
		for id, e := range l.cache {
			if e.gen != l.gen {
				delete(l.cache, id)
			}
		}
		for i, e := range l.slots {
			if e != nil && e.gen != l.gen {
				l.slots[i] = nil
			}
		}
	}
	l.mu.Unlock()
}

// haystack is the folded text a needle is looked for in: the three
// fields lowered one by one (final sigma is a per-field rule) and joined
// by NUL, which a needle without NUL cannot match across.
func haystack(h *SessionHeader, label string) string {
	cwd := ""
	if h.Cwd != nil {
		cwd = *h.Cwd
	}
	return lowerJS(h.ID) + "\x00" + lowerJS(cwd) + "\x00" + lowerJS(label)
}
