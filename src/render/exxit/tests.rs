use super::*;
use crate::render::canvas::Rgb8A;
use crate::render::exxit::layout::{layout, Extent, RimLine, RIM_SIZE};
use crate::render::exxit::rim::rim_labels;
use crate::render::exxit::world::{draw_tiles, draw_world};
use crate::render::header::{header_height, HEADER_H};
use image::Rgba;

fn px(img: &RgbaImage, at: (f32, f32)) -> [u8; 3] {
    let Rgba([r, g, b, _]) = *img.get_pixel(at.0 as u32, at.1 as u32);
    [r, g, b]
}

fn close(a: [u8; 3], b: Rgb8A) -> bool {
    a.iter()
        .zip([b.r, b.g, b.b])
        .all(|(x, y)| x.abs_diff(y) <= 6)
}

fn every_sample() -> Vec<View> {
    vec![
        samples::start(),
        samples::dance(),
        samples::big_stacks(),
        samples::expansion(),
        samples::long_line(),
        samples::full_world(),
    ]
}

#[test]
fn pictures_stay_within_bounds() {
    for v in every_sample() {
        let img = draw(&v, Theme::Dark);
        assert_eq!(img.width(), WIDTH);
        assert!(
            img.height() >= 200 && img.height() <= 1100,
            "{}",
            img.height()
        );
    }
}

/// Large cells carry their names, small ones none; every label lies inside the picture and
/// apart from the others. The samples hold worlds of both kinds.
#[test]
fn cells_are_named_when_large_enough() {
    let mut kinds = BTreeSet::new();
    for v in every_sample() {
        let e = Extent::of(&v);
        let l = layout(e);
        let boxes = label_boxes(&v, e);
        let want: BTreeSet<Hex> = if l.named() {
            v.tiles.iter().map(|t| t.0).chain(v.outer_space()).collect()
        } else {
            BTreeSet::new()
        };
        kinds.insert(l.named());
        let got: BTreeSet<Hex> = boxes
            .iter()
            .filter(|b| b.line.is_none())
            .map(|b| b.cell)
            .collect();
        assert_eq!(got, want);
        for b in &boxes {
            let (x0, y0, x1, y1) = b.covers;
            assert!(x0 >= 0.0 && y0 >= HEADER_H as f32, "{b:?}");
            assert!(x1 <= l.width as f32 && y1 <= l.height as f32, "{b:?}");
        }
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let (p, q) = (a.covers, b.covers);
                let apart = p.2 <= q.0 || q.2 <= p.0 || p.3 <= q.1 || q.3 <= p.1;
                assert!(apart, "{a:?} {b:?}");
            }
        }
    }
    assert_eq!(kinds.len(), 2, "named and unnamed worlds among the samples");
}

/// Every row and diagonal is named on the rim, in letters readable on a phone. Only a world too
/// long for its width (a line of 40 tiles) leaves diagonals unnamed, each next to a named one.
#[test]
fn every_row_and_diagonal_is_named_on_the_rim() {
    assert!(RIM_SIZE * 0.729 * PHONE_WIDTH / WIDTH as f32 >= 7.0);
    for v in every_sample() {
        let l = layout(Extent::of(&v));
        let tiles: BTreeMap<Hex, Colour> = v.tiles.iter().copied().collect();
        let space = v.outer_space();
        let rim = rim_labels(&l, &tiles, &space);
        let named = |line: RimLine| rim.iter().any(|x| x.line == line);
        let crowded = v == samples::long_line();
        let qs: BTreeSet<i32> = tiles.keys().chain(space.iter()).map(|h| h.q).collect();
        let d = |q| qs.contains(&q) && named(RimLine::Diagonal(q));
        for h in tiles.keys().chain(space.iter()) {
            assert!(
                named(RimLine::Row(h.r)),
                "row {} of {} tiles",
                h.r,
                v.tiles.len()
            );
            assert!(
                named(RimLine::Diagonal(h.q)) || (crowded && (d(h.q - 1) || d(h.q + 1))),
                "diagonal {}",
                h.q
            );
        }
    }
}

#[test]
fn cells_show_tiles_space_and_stack_tops() {
    let v = samples::dance();
    for theme in Theme::ALL {
        let p = theme.palette();
        let img = draw_in(&v, theme, Extent::of(&v));
        let l = layout(Extent::of(&v));
        let stacked: BTreeMap<Hex, Colour> = v
            .stacks
            .iter()
            .map(|s| (s.0, *s.1.last().unwrap_or(&Colour::First)))
            .collect();
        // Tiles without stacks: sample just above the centre (the label sits below).
        for (h, col) in &v.tiles {
            if stacked.contains_key(h) || *h == Hex::new(1, 1) {
                continue;
            }
            let (x, y) = l.centre(*h);
            let want = if *col == Colour::First {
                p.silver_tile
            } else {
                p.red_tile
            };
            assert!(
                close(px(&img, (x, y - l.r * 0.35)), want),
                "{theme:?} {h:?}"
            );
        }
        // Stacks: the top face's colour shows between its middle and its rim.
        for (h, top) in &stacked {
            let n = v.stacks.iter().find(|s| s.0 == *h).map_or(1, |s| s.1.len());
            let (x, y) = l.top_face(*h, n);
            let want = if *top == Colour::First {
                p.silver_disc
            } else {
                p.red_disc
            };
            // Clear of the height written in the middle and of a last move's ring on the rim.
            let at = (x - l.disc() * 0.5, y);
            assert!(
                close(px(&img, at), want),
                "{theme:?} {h:?} {:?}",
                px(&img, at)
            );
        }
        // Empty outer space.
        for h in v.outer_space() {
            if stacked.contains_key(&h) {
                continue;
            }
            let (x, y) = l.centre(h);
            assert!(
                close(px(&img, (x, y - l.r * 0.35)), p.space),
                "{theme:?} {h:?}"
            );
        }
    }
}

#[test]
fn cached_worlds_give_the_same_picture_as_fresh_ones() {
    for theme in Theme::ALL {
        let v = samples::full_world();
        let first = draw(&v, theme);
        for other in [samples::start(), samples::dance(), samples::expansion()] {
            let _ = draw(&other, theme);
        }
        assert!(first == draw(&v, theme), "{theme:?}");
        // The same world with other stacks and another last move shares the cached tiles.
        let mut w = v.clone();
        w.stacks.truncate(2);
        w.last = None;
        let l = layout(Extent::of(&w));
        let tiles: BTreeMap<Hex, Colour> = w.tiles.iter().copied().collect();
        let mut fresh = Canvas::new(l.width, l.height, theme.palette().bg);
        draw_tiles(&mut fresh, theme.palette(), &l, &tiles, &w.outer_space());
        draw_world(
            &mut fresh,
            theme.palette(),
            &l,
            &w,
            &tiles,
            &w.outer_space(),
        );
        let drawn = draw(&w, theme);
        let top = header_height(l.width) as usize * l.width as usize * 4;
        assert!(
            fresh.img.as_raw()[top..] == drawn.as_raw()[top..],
            "{theme:?}"
        );
    }
}

#[test]
fn stacks_of_sixteen_and_odd_views_never_panic() {
    let mut v = samples::big_stacks();
    v.stacks
        .push((Hex::new(500, -900), vec![Colour::Second; 40]));
    v.stacks.push((Hex::new(0, 1), vec![]));
    v.last = Some(LastMove::Dance {
        from: Hex::new(-400, 3),
        landings: vec![],
    });
    let _ = draw(&v, Theme::Dark);
    let empty = View::default();
    let _ = draw(&empty, Theme::Light);
    let img = draw(&samples::long_line(), Theme::Dark);
    assert_eq!(img.width(), WIDTH);
}

#[test]
fn sequences_share_one_frame() {
    let views = vec![samples::start(), samples::dance(), samples::long_line()];
    let imgs = draw_sequence(&views, Theme::Dark);
    assert_eq!(imgs.len(), 3);
    assert!(imgs.iter().all(|i| i.dimensions() == imgs[0].dimensions()));
}

/// An early world (the start position: four tiles) fills most of the picture's width, 0.7 of it
/// at least: on a phone the board is then at least 250 px wide. The world, its ring of outer space
/// and the rim labels left of its rows are about as wide as tall, so a square-ish board of the
/// width fits under [`MAX_BOARD_H`](super::layout) and only the largest hex radius stops it.
#[test]
fn early_boards_fill_the_width() {
    for v in [samples::start(), samples::expansion()] {
        let img = draw(&v, Theme::Dark);
        let bg = Theme::Dark.palette().bg;
        let used: Vec<u32> = (0..img.width())
            .filter(|&x| {
                (HEADER_H..img.height()).any(|y| !close(px(&img, (x as f32, y as f32)), bg))
            })
            .collect();
        let (Some(first), Some(last)) = (used.first(), used.last()) else {
            panic!("an empty board");
        };
        let share = (last - first + 1) as f32 / img.width() as f32;
        assert!(share >= 0.7, "{share}");
    }
}

/// Stacks copied from an earlier drawing give the same pixels as stacks drawn afresh, in every
/// sample and theme, and also where what lies under a stack changed since (a last move's path
/// or rings there before and gone now, or the other way round).
#[test]
fn copied_stacks_give_the_same_picture_as_fresh_ones() {
    let fresh = |v: &View, theme: Theme| {
        pieces::KEEP_STACKS.with(|k| k.set(false));
        let img = draw(v, theme);
        pieces::KEEP_STACKS.with(|k| k.set(true));
        img
    };
    for theme in Theme::ALL {
        for v in every_sample() {
            let want = fresh(&v, theme);
            // The first drawing keeps the stacks, the second copies them.
            for _ in 0..2 {
                assert!(draw(&v, theme) == want, "{} {theme:?}", v.caption);
            }
            let mut bare = v.clone();
            bare.last = None;
            let want_bare = fresh(&bare, theme);
            for _ in 0..2 {
                assert!(draw(&bare, theme) == want_bare, "{} {theme:?}", v.caption);
                assert!(draw(&v, theme) == want, "{} {theme:?}", v.caption);
            }
        }
    }
}
