package picker

import "testing"

// layoutColumns is pure: the same needs and width give the same columns.
// Its steps, on made-up needs: the order columns drop in, ids widened
// until they read differently, spare width given where rows need it.
func TestLayoutColumns(t *testing.T) {
	ids := []string{"aaaa0001-x", "aaaa0002-y"}
	base := columnNeeds{ids: ids, idWant: 10, labelNeed: 20, cwdNeed: 14, cwd: true, badge: true}

	wide := layoutColumns(base, 120)
	if !wide.cwd || !wide.badge || !wide.age {
		t.Fatalf("at 120 cells every column fits: %+v", wide)
	}
	if wide.ids[ids[0]] == wide.ids[ids[1]] {
		t.Fatalf("ids read the same: %+v", wide.ids)
	}
	if wide.labelW < base.labelNeed {
		t.Fatalf("spare width did not reach the label: %+v", wide)
	}

	narrow := layoutColumns(base, 40)
	if narrow.cwd || !narrow.age {
		t.Fatalf("at 40 cells the folder drops first, the age stays longest: %+v", narrow)
	}
	folder := base
	folder.folderOnly = true
	if c := layoutColumns(folder, 40); !c.cwd || c.badge {
		t.Fatalf("a row matched on its folder: the folder stays, the badge drops: %+v", c)
	}

	// The same prefix up to 8 cells: the id column grows past 8 to tell
	// them apart.
	if c := layoutColumns(base, 80); c.idW <= 8 || c.ids[ids[0]] == c.ids[ids[1]] {
		t.Fatalf("ids not told apart: width %d, %+v", c.idW, c.ids)
	}
	for _, w := range []int{1, 5, 12, 30, 60, 200} {
		c := layoutColumns(base, w)
		if used := markerW + gapW + c.idW + c.labelW; used > max(w, markerW+gapW+4) {
			t.Fatalf("at %d cells the label and id take %d: %+v", w, used, c)
		}
	}
}
