use super::*;
use crate::render::canvas::Rgb8A;
use crate::render::header::header_height;
use image::Rgba;

fn px(img: &RgbaImage, at: (f32, f32)) -> [u8; 3] {
    let Rgba([r, g, b, _]) = *img.get_pixel(at.0 as u32, at.1 as u32);
    [r, g, b]
}

fn rgb(c: Rgb8A) -> [u8; 3] {
    [c.r, c.g, c.b]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

#[test]
fn pictures_stay_within_bounds_for_every_size() {
    for n in 1..=14u8 {
        let v = View::empty(n);
        let img = draw(&v, Theme::Dark);
        assert_eq!(img.width(), WIDTH);
        assert!(
            img.height() >= 300 && img.height() <= 1000,
            "n={n}: {}",
            img.height()
        );
        let l = layout(&v);
        // The whole board lies inside the picture.
        for h in [
            Hex::new(0, 0),
            Hex::new(l.n - 1, l.n - 1),
            Hex::new(l.n - 1, 0),
            Hex::new(0, l.n - 1),
        ] {
            let (x, y) = l.centre(h);
            assert!(x - l.r > 0.0 && x + l.r < img.width() as f32, "n={n}");
            assert!(
                y - l.r > header_height(l.width) as f32 && y + l.r < img.height() as f32,
                "n={n}"
            );
        }
    }
}

#[test]
fn cell_centres_show_the_pieces() {
    for theme in Theme::ALL {
        let p = theme.palette();
        for n in [4u8, 7, 11] {
            let mut v = View::empty(n);
            let mut k = 0;
            for r in 0..i32::from(n) {
                for q in 0..i32::from(n) {
                    let piece = match k % 3 {
                        0 => None,
                        1 => Some(Piece::White),
                        _ => Some(Piece::Black),
                    };
                    v.set(Hex::new(q, r), piece);
                    k += 1;
                }
            }
            let img = draw(&v, theme);
            let l = layout(&v);
            for r in 0..i32::from(n) {
                for q in 0..i32::from(n) {
                    let h = Hex::new(q, r);
                    let want = match v.get(h) {
                        None => p.cell,
                        Some(Piece::White) => p.white_disc,
                        Some(Piece::Black) => p.black_disc,
                        Some(Piece::Neutral) => p.white_disc,
                    };
                    let got = px(&img, l.centre(h));
                    assert!(
                        close(got, rgb(want)),
                        "{theme:?} n={n} {h:?}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn edges_are_painted_in_their_owners_colours() {
    let v = View::empty(7);
    let img = draw(&v, Theme::Dark);
    let p = Theme::Dark.palette();
    let l = layout(&v);
    let band = |h: Hex, dx: f32, dy: f32| {
        let (x, y) = l.centre(h);
        px(&img, (x + dx * l.r, y + dy * l.r))
    };
    // Above row 1 and below row 7: White (I3).
    assert!(close(band(Hex::new(3, 0), 0.0, -1.25), rgb(p.white_edge)));
    assert!(close(band(Hex::new(3, 6), 0.0, 1.25), rgb(p.white_edge)));
    // Left of column a and right of the last column: Black.
    assert!(close(band(Hex::new(0, 3), -1.25, 0.0), rgb(p.black_edge)));
    assert!(close(band(Hex::new(6, 3), 1.25, 0.0), rgb(p.black_edge)));
}

#[test]
fn last_move_and_chain_are_marked() {
    let v = samples::won();
    let img = draw(&v, Theme::Dark);
    let p = Theme::Dark.palette();
    let l = layout(&v);
    // A chain disc has a gold ring.
    let (x, y) = l.centre(Hex::new(0, 3));
    let ring = px(&img, (x, y - l.disc() - l.r * 0.10));
    assert!(close(ring, rgb(p.win)), "{ring:?}");
    // The arrow of the regular move runs between the two cells.
    let a = l.centre(Hex::new(3, 2));
    let b = l.centre(Hex::new(3, 1));
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    assert!(close(px(&img, mid), rgb(p.last)));
}

#[test]
fn the_cached_empty_board_gives_the_same_picture_as_a_fresh_one() {
    for theme in Theme::ALL {
        let v = samples::relocation();
        let first = draw(&v, theme);
        // Other sizes in between, then the same view again from the cache.
        let _ = draw(&View::empty(5), theme);
        let _ = draw(&samples::large(), theme);
        assert!(first == draw(&v, theme), "{theme:?}");
        // The empty board under the header: drawing it by hand gives the same pixels.
        let l = layout(&v);
        let p = theme.palette();
        let mut fresh = Canvas::new(l.width, l.height, p.bg);
        draw_empty_board(&mut fresh, p, &l);
        let cached = draw(&View::empty(7), theme);
        let top = header_height(l.width) as usize * l.width as usize * 4;
        assert!(
            fresh.img.as_raw()[top..] == cached.as_raw()[top..],
            "{theme:?}"
        );
    }
}

#[test]
fn odd_views_never_panic() {
    let mut v = samples::large();
    v.cells.truncate(5);
    v.winning_chain = vec![Hex::new(-3, 40), Hex::new(100, -100)];
    v.last = Some(LastMove::Regular {
        from: Hex::new(-5, 2),
        to: Hex::new(50, 50),
        relocations: vec![(Hex::new(-1, -1), Hex::new(-1, -1))],
    });
    v.players = [String::new(), "x".repeat(500)];
    for theme in Theme::ALL {
        let _ = draw(&v, theme);
    }
    for n in [0u8, 1, 2, 26, 255] {
        let mut v = View::empty(n);
        v.last = Some(LastMove::Placement(Hex::new(0, 0)));
        let _ = draw(&v, Theme::Light);
    }
}

/// Discs copied from their first drawing are the same pixels as discs drawn afresh, on boards
/// full of every kind of disc (neighbours side by side) in both themes and several sizes.
#[test]
fn kept_discs_are_the_same_pixels_as_fresh_ones() {
    let kinds = [Piece::White, Piece::Black, Piece::Neutral];
    for n in [4u8, 7, 11] {
        let mut v = View::empty(n);
        for r in 0..i32::from(n) {
            for q in 0..i32::from(n) {
                v.set(Hex::new(q, r), Some(kinds[((q + 2 * r) % 3) as usize]));
            }
        }
        for theme in Theme::ALL {
            pieces::KEEP_DISCS.with(|k| k.set(false));
            let fresh = draw(&v, theme);
            pieces::KEEP_DISCS.with(|k| k.set(true));
            // The first drawing keeps the discs, the second copies them.
            for _ in 0..2 {
                assert!(draw(&v, theme) == fresh, "n={n} {theme:?}");
            }
        }
    }
}
