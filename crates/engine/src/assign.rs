//! Redealing hidden cards consistently with what a seat knows, for `determinize`.

use crate::rng::GameRng;

/// Rearranges `items` (one per slot) so that every slot holds an item it allows.
///
/// Tries uniform shuffles first (exactly uniform over consistent deals when one is
/// accepted); when constraints are tight it falls back to a randomised backtracking
/// search. Returns `false`, leaving `items` in some order, only if no consistent
/// arrangement exists — which for a real game state means a bug, since the true deal
/// is one.
pub fn deal_constrained<T: Copy + PartialEq>(
    items: &mut [T],
    allowed: impl Fn(usize, T) -> bool,
    rng: &mut GameRng,
) -> bool {
    const SHUFFLE_TRIES: usize = 32;
    for _ in 0..SHUFFLE_TRIES {
        rng.shuffle(items);
        if items.iter().enumerate().all(|(i, &t)| allowed(i, t)) {
            return true;
        }
    }
    backtrack(items, 0, &allowed, rng)
}

fn backtrack<T: Copy + PartialEq>(
    items: &mut [T],
    slot: usize,
    allowed: &impl Fn(usize, T) -> bool,
    rng: &mut GameRng,
) -> bool {
    if slot == items.len() {
        return true;
    }
    let remaining = items.len() - slot;
    // Random starting point so equal-weight alternatives are not always tried in order.
    let start = rng.index(remaining);
    for k in 0..remaining {
        let j = slot + (start + k) % remaining;
        let candidate = items[j];
        // Identical items lead to identical subtrees: try each value once per slot.
        let seen_before = (0..k).any(|e| items[slot + (start + e) % remaining] == candidate);
        if seen_before || !allowed(slot, candidate) {
            continue;
        }
        items.swap(slot, j);
        if backtrack(items, slot + 1, allowed, rng) {
            return true;
        }
        items.swap(slot, j);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn respects_every_constraint() {
        let mut rng = GameRng::from_seed(9);
        for _ in 0..200 {
            let mut items = [0u8, 0, 0, 1, 2, 3, 3];
            // slot 0 must hold 2, slot 1 must not hold 0 or 3, slot 6 must hold 0.
            let ok = deal_constrained(
                &mut items,
                |slot, v| match slot {
                    0 => v == 2,
                    1 => v != 0 && v != 3,
                    6 => v == 0,
                    _ => true,
                },
                &mut rng,
            );
            assert!(ok);
            assert_eq!(items[0], 2);
            assert!(items[1] == 1);
            assert_eq!(items[6], 0);
            let mut sorted = items;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 0, 0, 1, 2, 3, 3]);
        }
    }

    #[test]
    fn reports_impossible_constraints() {
        let mut rng = GameRng::from_seed(1);
        let mut items = [1u8, 1];
        assert!(!deal_constrained(&mut items, |_, v| v == 2, &mut rng));
    }
}
