package sessionref_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// sqlStore is the whole adapter of a client that keeps its sessions in a
// SQL database (two tables: sessions, and messages by session and
// position; times in Unix seconds, the cwd nullable). It compiles here;
// TestSQLAdapterIsShort keeps it short.
//
// ADAPTER BEGIN
func sqlStore(db *sql.DB) sessionref.MessageStore {
	return sessionref.MessageStore{
		Sessions: func(ctx context.Context) ([]sessionref.SessionRow, error) {
			rows, err := db.QueryContext(ctx, `SELECT id, coalesce(title, ''), coalesce(cwd, ''), created_at, updated_at FROM sessions`)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var out []sessionref.SessionRow
			for rows.Next() {
				var s sessionref.SessionRow
				var created, updated int64
				if err := rows.Scan(&s.ID, &s.Title, &s.Cwd, &created, &updated); err != nil {
					return nil, err
				}
				s.CreatedAt, s.UpdatedAt = time.Unix(created, 0), time.Unix(updated, 0)
				out = append(out, s)
			}
			return out, rows.Err()
		},
		Messages: func(ctx context.Context, id string) ([]sessionref.MessageRow, error) {
			rows, err := db.QueryContext(ctx, `SELECT role, content FROM messages WHERE session_id = ? ORDER BY position`, id)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var out []sessionref.MessageRow
			for rows.Next() {
				var m sessionref.MessageRow
				if err := rows.Scan(&m.Role, &m.Text); err != nil {
					return nil, err
				}
				out = append(out, m)
			}
			return out, rows.Err()
		},
	}
}

// ADAPTER END

// TestSQLAdapterIsShort: a store adapter over a SQL session table, as a
// client writes it, stays under 40 lines.
func TestSQLAdapterIsShort(t *testing.T) {
	src, err := os.ReadFile("messagestore_sql_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "// ADAPTER BEGIN\n")
	adapter, _, ok := strings.Cut(rest, "// ADAPTER END")
	if !ok {
		t.Fatal("no adapter markers")
	}
	n := strings.Count(strings.TrimSpace(adapter), "\n") + 1
	if n >= 40 {
		t.Fatalf("the SQL adapter is %d lines", n)
	}
	t.Logf("the SQL adapter is %d lines", n)
	_ = sqlStore // compiled, not run: the core's module has no SQL driver
}
