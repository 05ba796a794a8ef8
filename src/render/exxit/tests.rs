use super::*;
use crate::render::canvas::Rgb8A;
use crate::render::exxit::layout::{layout, Extent, RimLine, MAX_WIDTH, MIN_WIDTH};
use crate::render::exxit::rim::rim_labels;
use crate::render::exxit::world::{draw_tiles, draw_world};
use crate::render::header::HEADER_H;
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
        assert!(
            (MIN_WIDTH..=MAX_WIDTH).contains(&img.width()),
            "{}",
            img.width()
        );
        assert!(
            img.height() >= 200 && img.height() <= 1100,
            "{}",
            img.height()
        );
    }
}

#[test]
fn every_nameable_cell_is_labelled_inside_the_picture() {
    for theme in Theme::ALL {
        for v in every_sample() {
            let (img, boxes) = draw_in(&v, theme, Extent::of(&v));
            let want: BTreeSet<Hex> = v.tiles.iter().map(|t| t.0).chain(v.outer_space()).collect();
            let got: BTreeSet<Hex> = boxes.iter().map(|b| b.0).collect();
            assert_eq!(got, want);
            for (h, (x0, y0, x1, y1)) in &boxes {
                assert!(*x0 >= 0.0 && *y0 >= HEADER_H as f32, "{h:?}");
                assert!(
                    *x1 <= img.width() as f32 && *y1 <= img.height() as f32,
                    "{h:?}"
                );
            }
            // No two labels overlap.
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    let (a, b) = (a.1, b.1);
                    let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                    assert!(apart, "{a:?} {b:?}");
                }
            }
        }
    }
}

#[test]
fn every_row_and_diagonal_is_named_on_the_rim_at_20_px() {
    for theme in Theme::ALL {
        for v in every_sample() {
            let (_, boxes) = draw_in(&v, theme, Extent::of(&v));
            let l = layout(Extent::of(&v));
            let tiles: BTreeMap<Hex, Colour> = v.tiles.iter().copied().collect();
            let space = v.outer_space();
            let rim = rim_labels(&l, &tiles, &space);
            for h in tiles.keys().chain(space.iter()) {
                assert!(
                    rim.iter().any(|x| x.line == RimLine::Row(h.r)),
                    "row {}",
                    h.r
                );
                assert!(
                    rim.iter().any(|x| x.line == RimLine::Diagonal(h.q)),
                    "diagonal {}",
                    h.q
                );
            }
            for x in &rim {
                assert!(x.size >= 20.0);
                let a = x.bounds;
                assert!(a.0 >= 0.0 && a.2 <= l.width as f32, "{x:?}");
                assert!(a.1 >= HEADER_H as f32 && a.3 <= l.height as f32, "{x:?}");
                for (h, b) in &boxes {
                    let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                    assert!(apart, "{x:?} overlaps the label of {h}");
                }
            }
        }
    }
}

#[test]
fn cells_show_tiles_space_and_stack_tops() {
    let v = samples::dance();
    for theme in Theme::ALL {
        let p = theme.palette();
        let (img, _) = draw_in(&v, theme, Extent::of(&v));
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
        // Stacks: the top face's colour shows just inside its rim (the middle holds the height).
        for (h, top) in &stacked {
            let n = v.stacks.iter().find(|s| s.0 == *h).map_or(1, |s| s.1.len());
            let (x, y) = l.top_face(*h, n);
            let want = if *top == Colour::First {
                p.silver_disc
            } else {
                p.red_disc
            };
            let at = (x - l.disc() * 0.82, y);
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
        let top = HEADER_H as usize * l.width as usize * 4;
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
    assert!(img.width() <= MAX_WIDTH);
}

#[test]
fn sequences_share_one_frame() {
    let views = vec![samples::start(), samples::dance(), samples::long_line()];
    let imgs = draw_sequence(&views, Theme::Dark);
    assert_eq!(imgs.len(), 3);
    assert!(imgs.iter().all(|i| i.dimensions() == imgs[0].dimensions()));
}
