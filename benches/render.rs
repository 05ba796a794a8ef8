//! Picture cost: drawing plus PNG encoding, for a 7×7 inpHeXion middle game and a 39-tile EXXIT
//! world, in both themes, in English and with Japanese words and names (Noto Sans CJK JP beside
//! DejaVu); and the boards of one game move after move (a seeded random game of each, its
//! positions drawn in turn, as a game's thread receives them: the discs and stacks a move left
//! alone are copied from the board before, the others drawn). Run with
//! `cargo bench --bench render`.
use criterion::{criterion_group, criterion_main, Criterion};
use hexcord::games::{Game, GameKind, Options};
use hexcord::i18n::Lang;
use hexcord::render::{encode_png, exxit, inphexion, render_png, Theme};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The game after each of up to `plies` seeded random moves.
fn successive(kind: GameKind, plies: usize) -> Vec<Game> {
    let mut game = Game::new(Options::default_for(kind));
    let mut rng = SmallRng::seed_from_u64(11);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let k = rng.random_range(0..moves.len());
        if game.play(moves[k]).is_err() {
            break;
        }
        out.push(game.clone());
    }
    out
}

fn bench(c: &mut Criterion) {
    let inph = inphexion::samples::relocation();
    let exx = exxit::samples::full_world();
    for theme in Theme::ALL {
        let a = encode_png(&inphexion::draw(&inph, theme)).unwrap_or_default();
        let b = encode_png(&exxit::draw(&exx, theme)).unwrap_or_default();
        println!(
            "{} theme: inpHeXion 7×7 PNG {} bytes, EXXIT 39 tiles PNG {} bytes",
            theme.name(),
            a.len(),
            b.len()
        );
    }
    let ja = Lang::of("ja");
    let mut inph_ja = inph.clone();
    inph_ja.lang = ja;
    inph_ja.players = ["山田 花子".into(), "さくら".into()];
    inph_ja.caption = hexcord::text!("render-move", ply = 16, mv = "e4-f4").render(ja);
    let mut exx_ja = exx.clone();
    exx_ja.lang = ja;
    exx_ja.players = ["山田 花子".into(), "さくら".into()];
    exx_ja.caption = hexcord::text!("render-move", ply = 70, mv = "1,1").render(ja);
    c.bench_function("inphexion 7x7 draw", |b| {
        b.iter(|| inphexion::draw(&inph, Theme::Dark))
    });
    c.bench_function("inphexion 7x7 draw+png", |b| {
        b.iter(|| encode_png(&inphexion::draw(&inph, Theme::Dark)))
    });
    c.bench_function("exxit 39 tiles draw", |b| {
        b.iter(|| exxit::draw(&exx, Theme::Dark))
    });
    c.bench_function("exxit 39 tiles draw+png", |b| {
        b.iter(|| encode_png(&exxit::draw(&exx, Theme::Dark)))
    });
    c.bench_function("inphexion 7x7 light draw+png", |b| {
        b.iter(|| encode_png(&inphexion::draw(&inph, Theme::Light)))
    });
    c.bench_function("exxit 39 tiles light draw+png", |b| {
        b.iter(|| encode_png(&exxit::draw(&exx, Theme::Light)))
    });
    let names = ["Alice".to_string(), "Bob".to_string()];
    for (name, kind) in [
        ("inphexion 7x7 successive boards", GameKind::Inphexion),
        ("exxit successive boards", GameKind::Exxit),
    ] {
        let games = successive(kind, 60);
        let mut i = 0;
        c.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % games.len().max(1);
                games
                    .get(i)
                    .map(|g| render_png(g, None, &names, Theme::Dark))
            })
        });
    }
    c.bench_function("inphexion 7x7 ja draw+png", |b| {
        b.iter(|| encode_png(&inphexion::draw(&inph_ja, Theme::Dark)))
    });
    c.bench_function("exxit 39 tiles ja draw+png", |b| {
        b.iter(|| encode_png(&exxit::draw(&exx_ja, Theme::Dark)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
