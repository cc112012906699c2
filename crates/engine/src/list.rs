//! A list of at most `N` small values kept inline: hands, piles, bids, dealt roles.
//!
//! Not `arrayvec::ArrayVec`: states are cloned at every determinization and every
//! search iteration, and a `Copy` list is cloned by one `memcpy` where `ArrayVec`
//! clones element by element; its length is a `u8`, not a `usize`. Equality and
//! hashing see only the items in the list, never the unused tail.

use std::fmt;
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy)]
pub struct FixedList<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: u8,
}

/// Pushing onto a full [`FixedList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

impl<T: Copy + Default, const N: usize> Default for FixedList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> FixedList<T, N> {
    pub const CAPACITY: usize = {
        assert!(N <= 255, "a FixedList holds at most 255 items");
        N
    };

    pub fn new() -> Self {
        let _ = Self::CAPACITY;
        FixedList {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// The items of `slice`, or `Full` if there are more than `N`.
    pub fn from_slice(slice: &[T]) -> Result<Self, Full> {
        let mut list = Self::new();
        for item in slice {
            list.push(*item)?;
        }
        Ok(list)
    }

    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.len() >= N
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..self.len()).unwrap_or(&[])
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = self.len();
        self.items.get_mut(..len).unwrap_or(&mut [])
    }

    /// Adds `item` at the end; a full list is left as it was.
    #[inline]
    pub fn push(&mut self, item: T) -> Result<(), Full> {
        let len = self.len();
        let slot = self.items.get_mut(len).ok_or(Full)?;
        *slot = item;
        self.len += 1;
        Ok(())
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        let last = self.len().checked_sub(1)?;
        self.len -= 1;
        let item = self.items.get(last).copied();
        if let Some(slot) = self.items.get_mut(last) {
            *slot = T::default();
        }
        item
    }

    #[inline]
    pub fn first(&self) -> Option<&T> {
        self.as_slice().first()
    }

    #[inline]
    pub fn last(&self) -> Option<&T> {
        self.as_slice().last()
    }

    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        self.as_slice().get(index)
    }

    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.as_mut_slice().get_mut(index)
    }

    /// Removes and returns the item at `index`, keeping the order of the rest.
    pub fn remove(&mut self, index: usize) -> Option<T> {
        let len = self.len();
        let item = *self.items.get(index).filter(|_| index < len)?;
        self.items.get_mut(index..len)?.rotate_left(1);
        self.len -= 1;
        if let Some(slot) = self.items.get_mut(len - 1) {
            *slot = T::default();
        }
        Some(item)
    }

    /// Removes and returns the item at `index`, moving the last item into its place.
    pub fn swap_remove(&mut self, index: usize) -> Option<T> {
        let len = self.len();
        if index >= len {
            return None;
        }
        self.items.swap(index, len - 1);
        self.pop()
    }

    pub fn clear(&mut self) {
        *self = Self::new();
    }

    pub fn truncate(&mut self, len: usize) {
        while self.len() > len {
            self.pop();
        }
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> FixedList<T, N> {
    #[inline]
    pub fn contains(&self, item: &T) -> bool {
        self.as_slice().contains(item)
    }

    pub fn position(&self, item: &T) -> Option<usize> {
        self.as_slice().iter().position(|x| x == item)
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for FixedList<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for FixedList<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for FixedList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Collects up to `N` items; the rest are dropped (use `from_slice` to be told).
impl<T: Copy + Default, const N: usize> FromIterator<T> for FixedList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        for item in iter.into_iter().take(N) {
            let _ = list.push(item);
        }
        list
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a FixedList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default + serde::Serialize, const N: usize> serde::Serialize for FixedList<T, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Push(u8),
        Pop,
        Remove(usize),
        SwapRemove(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            any::<u8>().prop_map(Op::Push),
            Just(Op::Pop),
            (0usize..8).prop_map(Op::Remove),
            (0usize..8).prop_map(Op::SwapRemove),
        ]
    }

    proptest! {
        #[test]
        fn a_fixed_list_behaves_like_a_vec_capped_at_n(ops in proptest::collection::vec(op(), 0..40)) {
            let mut list = FixedList::<u8, 5>::new();
            let mut model: Vec<u8> = Vec::new();
            for op in ops {
                match op {
                    Op::Push(x) => {
                        let pushed = list.push(x).is_ok();
                        prop_assert_eq!(pushed, model.len() < 5);
                        if pushed { model.push(x) }
                    }
                    Op::Pop => prop_assert_eq!(list.pop(), model.pop()),
                    Op::Remove(i) => prop_assert_eq!(list.remove(i), (i < model.len()).then(|| model.remove(i))),
                    Op::SwapRemove(i) => prop_assert_eq!(list.swap_remove(i), (i < model.len()).then(|| model.swap_remove(i))),
                }
                prop_assert_eq!(list.as_slice(), &model[..]);
                // Equal contents are equal lists, whatever was popped before.
                prop_assert_eq!(list, FixedList::<u8, 5>::from_slice(&model).unwrap_or_default());
            }
        }
    }
}
