//! Pictures drawn once per process and copied afterwards (the empty board of a size, the tiles of
//! a world), and smaller values computed once (text widths and coverage masks); and, in tests,
//! the list of the texts a drawing made (`record_texts`), during which nothing is copied from
//! these caches.

use image::RgbaImage;

/// Pictures drawn once per process and copied afterwards: the parts of a board picture that
/// many positions share (the empty board of a size, the tiles of a world). At most `KEEP`
/// entries, the oldest dropped first; safe to use from several threads.
pub struct PictureCache<K> {
    entries: std::sync::Mutex<Vec<(K, std::sync::Arc<RgbaImage>)>>,
}

impl<K: PartialEq> PictureCache<K> {
    const KEEP: usize = 6;

    pub const fn new() -> PictureCache<K> {
        PictureCache {
            entries: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A copy of the picture stored under `key`, drawn by `draw` when there is none.
    pub fn get_or_draw(&self, key: K, draw: impl FnOnce() -> RgbaImage) -> RgbaImage {
        if recording() {
            return draw();
        }
        let lock = || self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let found = lock()
            .iter()
            .find(|e| e.0 == key)
            .map(|e| std::sync::Arc::clone(&e.1));
        if let Some(img) = found {
            return (*img).clone();
        }
        let img = draw();
        let mut entries = lock();
        if !entries.iter().any(|e| e.0 == key) {
            if entries.len() >= Self::KEEP {
                entries.remove(0);
            }
            entries.push((key, std::sync::Arc::new(img.clone())));
        }
        img
    }
}

/// Values computed once and looked up afterwards (text widths, text coverage masks): a map
/// behind a mutex that is emptied when it holds more than `cap` entries, so memory stays
/// bounded whatever the texts drawn. Safe to use from several threads.
pub struct Memo<K, V> {
    cap: usize,
    entries: std::sync::Mutex<Option<std::collections::HashMap<K, V>>>,
}

impl<K: std::hash::Hash + Eq, V: Clone> Memo<K, V> {
    pub const fn new(cap: usize) -> Memo<K, V> {
        Memo {
            cap,
            entries: std::sync::Mutex::new(None),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<std::collections::HashMap<K, V>>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value stored under `key`, computed by `make` when there is none.
    pub fn get_or(&self, key: K, make: impl FnOnce() -> V) -> V {
        if let Some(v) = self.get(&key) {
            return v;
        }
        let v = make();
        self.insert(key, v.clone());
        v
    }

    /// The value stored under `key`, if any.
    pub fn get(&self, key: &K) -> Option<V> {
        self.lock().as_ref().and_then(|m| m.get(key)).cloned()
    }

    /// Stores `v` under `key` (replacing what was there).
    pub fn insert(&self, key: K, v: V) {
        let mut entries = self.lock();
        let map = entries.get_or_insert_with(std::collections::HashMap::new);
        if map.len() >= self.cap && !map.contains_key(&key) {
            map.clear();
        }
        map.insert(key, v);
    }
}

/// A text drawn while [`record_texts`] listened: its words and its smallest em in pixels (the
/// Japanese face's em is `render::fonts`' 0.92 of the size).
#[cfg(test)]
#[derive(Clone, Debug)]
pub(crate) struct DrawnText {
    pub text: String,
    pub em: f32,
}

#[cfg(test)]
thread_local! {
    static DRAWN: std::cell::RefCell<Option<Vec<DrawnText>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `draw` and lists every text it drew, with its size. While it runs, nothing is copied
/// from the caches of drawn parts (empty boards, worlds, stacks): every text is drawn, so every
/// text is listed.
///
/// The size recorded is the font size (the em), not the cap height: type is specified and
/// judged by its em (CSS `font-size`, the minimum sizes of phone guidelines), the em is the same
/// measure for Latin and Japanese (a kanji fills most of its em, a Latin capital 0.73 of it), and
/// it does not depend on which letters a text happens to hold.
#[cfg(test)]
pub(crate) fn record_texts<T>(draw: impl FnOnce() -> T) -> (T, Vec<DrawnText>) {
    let outer = DRAWN.with(|d| d.borrow_mut().replace(Vec::new()));
    let out = draw();
    let drawn = DRAWN.with(|d| std::mem::replace(&mut *d.borrow_mut(), outer));
    (out, drawn.unwrap_or_default())
}

/// Adds text `s`, drawn at em `em`, to the list [`record_texts`] keeps, if it listens.
#[cfg(test)]
pub(crate) fn note_drawn(s: &str, em: f32) {
    DRAWN.with(|d| {
        if let Some(list) = d.borrow_mut().as_mut() {
            list.push(DrawnText {
                text: s.to_string(),
                em,
            });
        }
    });
}

/// Whether `record_texts` (in tests) is listening on this thread.
pub(crate) fn recording() -> bool {
    #[cfg(test)]
    {
        DRAWN.with(|d| d.borrow().is_some())
    }
    #[cfg(not(test))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn the_picture_cache_draws_once_and_stays_bounded() {
        let cache: PictureCache<u32> = PictureCache::new();
        let draws = std::cell::Cell::new(0);
        let draw = |v: u8| {
            draws.set(draws.get() + 1);
            RgbaImage::from_pixel(2, 2, Rgba([v, 0, 0, 255]))
        };
        assert_eq!(cache.get_or_draw(1, || draw(1)).get_pixel(0, 0).0[0], 1);
        assert_eq!(cache.get_or_draw(1, || draw(9)).get_pixel(0, 0).0[0], 1);
        assert_eq!(draws.get(), 1);
        for k in 2..=PictureCache::<u32>::KEEP as u32 + 1 {
            cache.get_or_draw(k, || draw(k as u8));
        }
        // The oldest entry was dropped: it is drawn again.
        let before = draws.get();
        cache.get_or_draw(1, || draw(1));
        assert_eq!(draws.get(), before + 1);
    }

    #[test]
    fn a_memo_computes_once_and_empties_when_full() {
        let memo: Memo<u32, u32> = Memo::new(3);
        let made = std::cell::Cell::new(0);
        let make = |v: u32| {
            made.set(made.get() + 1);
            v * 10
        };
        assert_eq!(memo.get_or(1, || make(1)), 10);
        assert_eq!(memo.get_or(1, || make(7)), 10);
        assert_eq!(made.get(), 1);
        for k in 2..=4 {
            assert_eq!(memo.get_or(k, || make(k)), k * 10);
        }
        // Full at the fourth key: emptied, so the first is computed again.
        assert_eq!(memo.get_or(1, || make(1)), 10);
        assert_eq!(made.get(), 5);
        // A value replaced in place does not empty the memo.
        assert_eq!(memo.get(&4), Some(40));
        memo.insert(4, 41);
        assert_eq!((memo.get(&4), memo.get(&1)), (Some(41), Some(10)));
        assert_eq!(memo.get(&9), None);
    }
}
