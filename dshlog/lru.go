package dshlog

import "container/list"

// lru is the parsed-log cache: a byte budget over estimated sizes, the
// least recently used log evicted first. It is not safe for concurrent
// use; the store's mutex guards it.
type lru struct {
	budget, used int64
	order        *list.List // of *lruEntry, most recent first
	byPath       map[string]*list.Element
}

type lruEntry struct {
	path string
	key  fileKey
	p    *parsed
}

func newLRU(budget int64) *lru {
	return &lru{budget: budget, order: list.New(), byPath: map[string]*list.Element{}}
}

// get returns the entry of path, marking it most recent.
func (c *lru) get(path string) *lruEntry {
	el, ok := c.byPath[path]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry)
}

// put stores the entry of path, then evicts from the least recent end
// until the budget holds (a log bigger than the whole budget is not kept).
func (c *lru) put(path string, key fileKey, p *parsed) {
	c.remove(path)
	if p.cost > c.budget {
		return // it would evict everything and then itself
	}
	c.byPath[path] = c.order.PushFront(&lruEntry{path: path, key: key, p: p})
	c.used += p.cost
	for c.used > c.budget && c.order.Len() > 0 {
		c.remove(c.order.Back().Value.(*lruEntry).path)
	}
}

func (c *lru) remove(path string) {
	if el, ok := c.byPath[path]; ok {
		c.used -= el.Value.(*lruEntry).p.cost
		c.order.Remove(el)
		delete(c.byPath, path)
	}
}
