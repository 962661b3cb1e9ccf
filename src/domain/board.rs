//! Where each stay goes on the room board: pure layout, no I/O. A room's row shows the
//! stays in that room without overlaps, the ones still to come or in the house first; a
//! booking without a room, or one that clashes in its room while it still holds the room,
//! goes to a row of its own under its type ("lanes", first fit in arrival order, at most
//! a few per type, the rest counted). A stay that has left and whose nights another stay
//! took (an early departure re-let, or a day use) is history the board does not draw: the
//! reservation itself keeps it. The layout decides which stays are drawn, so the board
//! reads the guests' names of those alone.

/// A stay as the layout sees it: nights are columns `0..days` of the board, rooms and room
/// types indexes into the board's lists.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stay {
    /// The room it holds, if any (and if the board has it).
    pub room: Option<usize>,
    /// Its room type.
    pub room_type: usize,
    /// First column it covers (clamped to the board).
    pub start: usize,
    /// Column after its last night (clamped to the board).
    pub end: usize,
    /// Booked or in the house (it holds its room); false once checked out.
    pub active: bool,
}

/// A room as the layout sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Room {
    /// Its room type.
    pub room_type: usize,
    /// Not out of order.
    pub in_service: bool,
}

/// The board's layout: indexes into the stays given to [`layout`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    /// For each room (in the order given), its stays by first night.
    pub rooms: Vec<Vec<usize>>,
    /// For each room type, its lanes, each a list of stays by first night.
    pub lanes: Vec<Vec<Vec<usize>>>,
    /// For each room type, how many stays found no lane.
    pub hidden: Vec<usize>,
    /// For each room type, rooms still free each night: those in service less the
    /// active stays of the type (below zero when it is overbooked).
    pub free: Vec<Vec<i64>>,
}

impl Layout {
    /// Every stay the board draws, in no particular order.
    pub fn shown(&self) -> impl Iterator<Item = usize> + '_ {
        self.rooms
            .iter()
            .chain(self.lanes.iter().flatten())
            .flatten()
            .copied()
    }

    /// The same layout with each stay `i` renumbered to `to(i)`, or left out where that is
    /// `None`.
    pub fn renumber(mut self, to: impl Fn(usize) -> Option<usize>) -> Layout {
        for row in self.rooms.iter_mut().chain(self.lanes.iter_mut().flatten()) {
            *row = row.iter().filter_map(|&i| to(i)).collect();
        }
        self
    }
}

/// Lays `stays` out on a board of `days` nights with `rooms` of `types` room types, at
/// most `max_lanes` lanes per room type.
pub fn layout(
    rooms: &[Room],
    types: usize,
    stays: &[Stay],
    days: usize,
    max_lanes: usize,
) -> Layout {
    let mut out = Layout {
        rooms: vec![Vec::new(); rooms.len()],
        lanes: vec![Vec::new(); types],
        hidden: vec![0; types],
        free: vec![vec![0; days]; types],
    };
    for r in rooms.iter().filter(|r| r.in_service) {
        out.free[r.room_type].iter_mut().for_each(|n| *n += 1);
    }
    // Active stays claim their rooms first; then those that have left fill what is left.
    let mut order: Vec<usize> = (0..stays.len())
        .filter(|&i| stays[i].end > stays[i].start)
        .collect();
    order.sort_by_key(|&i| (!stays[i].active, stays[i].start, i));
    let mut taken = vec![vec![false; days]; rooms.len()];
    let mut waiting = Vec::new();
    for i in order {
        let s = &stays[i];
        if s.active {
            out.free[s.room_type][s.start..s.end]
                .iter_mut()
                .for_each(|n| *n -= 1);
        }
        match s.room {
            Some(row) if taken[row][s.start..s.end].iter().all(|t| !t) => {
                taken[row][s.start..s.end]
                    .iter_mut()
                    .for_each(|t| *t = true);
                out.rooms[row].push(i);
            }
            _ if s.active => waiting.push(i),
            _ => {}
        }
    }
    for row in &mut out.rooms {
        row.sort_by_key(|&i| stays[i].start);
    }
    waiting.sort_by_key(|&i| (stays[i].start, i));
    for i in waiting {
        let s = &stays[i];
        let lanes = &mut out.lanes[s.room_type];
        let fits = |lane: &Vec<usize>| lane.last().is_none_or(|&j| stays[j].end <= s.start);
        match lanes.iter().position(fits) {
            Some(lane) => lanes[lane].push(i),
            None if lanes.len() < max_lanes => lanes.push(vec![i]),
            None => out.hidden[s.room_type] += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn stay(room: Option<usize>, start: usize, end: usize, active: bool) -> Stay {
        Stay {
            room,
            room_type: 0,
            start,
            end,
            active,
        }
    }

    const ROOMS: [Room; 2] = [
        Room {
            room_type: 0,
            in_service: true,
        },
        Room {
            room_type: 0,
            in_service: false,
        },
    ];

    /// An active clash goes to a lane; a stay that has left and was re-let is not drawn.
    #[test]
    fn clashes_in_a_room() {
        let stays = [
            stay(Some(0), 0, 2, false),
            stay(Some(0), 1, 3, true),
            stay(Some(0), 2, 4, true),
            stay(None, 0, 1, true),
        ];
        let l = layout(&ROOMS, 1, &stays, 14, 30);
        assert_eq!(l.rooms[0], vec![1]);
        assert_eq!(l.lanes[0], vec![vec![3, 2]]);
        assert_eq!(l.free[0][..5], [0, 0, -1, 0, 1]);
        let mut shown: Vec<_> = l.shown().collect();
        shown.sort();
        assert_eq!(shown, [1, 2, 3]);
    }

    /// Past the last lane, stays are counted rather than drawn.
    #[test]
    fn lanes_are_capped() {
        let stays: Vec<_> = (0..5).map(|_| stay(None, 0, 1, true)).collect();
        let l = layout(&ROOMS, 1, &stays, 14, 3);
        assert_eq!(l.lanes[0].len(), 3);
        assert_eq!(l.hidden[0], 2);
    }

    proptest! {
        /// No row, room or lane, ever holds two stays on one night; every active stay is
        /// drawn or counted; free nights count the active stays.
        #[test]
        fn rows_never_overlap(raw in proptest::collection::vec(
            (0..3usize, 0..14usize, 1..6usize, any::<bool>()), 0..60)) {
            let stays: Vec<_> = raw.iter().map(|&(room, start, len, active)| {
                stay([Some(0), Some(1), None][room], start, (start + len).min(14), active)
            }).collect();
            let l = layout(&ROOMS, 1, &stays, 14, 4);
            for row in l.rooms.iter().chain(l.lanes.iter().flatten()) {
                let mut nights = [false; 14];
                for &i in row {
                    for n in &mut nights[stays[i].start..stays[i].end] {
                        prop_assert!(!*n);
                        *n = true;
                    }
                }
            }
            let active = stays.iter().filter(|s| s.active).count();
            let drawn = l.shown().filter(|&i| stays[i].active).count();
            prop_assert_eq!(drawn + l.hidden.iter().sum::<usize>(), active);
            for night in 0..14 {
                let held = stays.iter().filter(|s| s.active && s.start <= night && night < s.end).count();
                prop_assert_eq!(l.free[0][night], 1 - held as i64);
            }
        }
    }
}
