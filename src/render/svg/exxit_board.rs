//! The EXXIT board as SVG: the PNG's layout (`exxit::layout`, `exxit::rim`) drawn as shapes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{cls, header, hexagon, num, Svg};
use crate::games::Colour;
use crate::hex::Hex;
use crate::render::canvas::centred_baseline;
use crate::render::exxit;
use crate::render::header::status_text;

fn exxit_colours(col: Colour) -> (&'static str, &'static str, &'static str) {
    match col {
        Colour::First => ("silver_disc", "silver_rim", "label_on_silver"),
        Colour::Second => ("red_disc", "red_rim", "label_on_red"),
    }
}

fn exxit_disc(svg: &mut Svg, c: (f32, f32), r: f32, col: Colour) {
    let (face, rim, _) = exxit_colours(col);
    svg.disc(c, r, rim, 255);
    svg.disc(c, r - (r * 0.10).max(1.5), face, 255);
    svg.ring(c, r * 0.68, (r * 0.06).max(1.0), rim, 70);
}

fn exxit_stack(svg: &mut Svg, l: &exxit::layout::Layout, at: Hex, discs: &[Colour]) {
    use exxit::layout::MAX_LAYERS;
    let Some(&top) = discs.last() else {
        return;
    };
    let (x, y) = l.base(at);
    let r = l.disc();
    let shown = &discs[discs.len().saturating_sub(MAX_LAYERS)..];
    svg.disc((x, y + r * 0.12), r * 1.04, "contrast", 80);
    for (i, col) in shown.iter().enumerate() {
        let cy = y - i as f32 * l.layer();
        let (face, rim, _) = exxit_colours(*col);
        svg.disc((x, cy), r, rim, 255);
        if i + 1 < shown.len() {
            svg.disc((x, cy), r - (r * 0.10).max(1.5), face, 255);
        }
    }
    let (tx, ty) = l.top_face(at, discs.len());
    exxit_disc(svg, (tx, ty), r, top);
    if discs.len() > 1 {
        let (_, _, ink) = exxit_colours(top);
        let label = discs.len().to_string();
        let size = if label.len() > 1 { r * 0.82 } else { r * 0.95 };
        svg.text(
            (tx, centred_baseline(size, ty)),
            size,
            &format!("class=\"b f-{}\"", cls(ink)),
            "middle",
            &label,
        );
    }
}

pub(in crate::render) fn exxit_svg(view: &exxit::View, targets: &[Hex]) -> String {
    use exxit::layout::layout;
    use exxit::rim::rim_labels;
    use exxit::{Extent, LastMove};
    let l = layout(Extent::of(view));
    let r = l.r;
    let header_words = view.header();
    let mut svg = Svg::new(l.width, l.height, "exxit", r, &status_text(&header_words));
    let tiles: BTreeMap<Hex, Colour> = view.tiles.iter().copied().collect();
    let space = view.outer_space();
    let line = (r * 0.07).max(1.2);
    svg.out.push_str("<defs>");
    let mut attrs = String::from("stroke-width=\"");
    num(&mut attrs, line + 0.3);
    attrs.push('"');
    svg.def("c", &hexagon(r - (line - 0.3) / 2.0), &attrs);
    svg.def("s", &hexagon(r - 2.0), "");
    let mut dashed = String::from("fill=\"none\" stroke-width=\"1.5\" stroke-dasharray=\"");
    num(&mut dashed, r * 0.18);
    dashed.push(' ');
    num(&mut dashed, r * 0.18 * 0.8);
    dashed.push('"');
    svg.def("d", &hexagon(r - 3.0), &dashed);
    let mut inner = String::from("fill=\"none\" stroke-opacity=\".59\" stroke-width=\"");
    num(&mut inner, (r * 0.05).max(1.0));
    inner.push('"');
    svg.def("i", &hexagon(r * 0.80), &inner);
    svg.def("t", &hexagon(r), "");
    svg.out.push_str("</defs>");
    header(
        &mut svg,
        l.width as f32,
        &header_words,
        &|s, c, rad, col| exxit_disc(s, c, rad * 0.95, col),
    );
    // Outer space: hollows with dashed rims.
    svg.out.push_str("<g class=\"f-space\">");
    for h in &space {
        svg.use_at("s", l.centre(*h), "");
    }
    svg.out.push_str("</g><g class=\"s-space-line\">");
    for h in &space {
        svg.use_at("d", l.centre(*h), "");
    }
    svg.out.push_str("</g>");
    // Tiles; red ones carry an inner border so they differ by pattern, not only by hue.
    for (h, col) in &tiles {
        let class = match col {
            Colour::First => "class=\"f-silver-tile s-silver-tile-line\"",
            Colour::Second => "class=\"f-red-tile s-red-tile-line\"",
        };
        svg.use_at("c", l.centre(*h), class);
        if *col == Colour::Second {
            svg.use_at("i", l.centre(*h), "class=\"s-red-tile-line\"");
        }
    }
    // The coordinates written large on the rim.
    for label in rim_labels(&l, &tiles, &space) {
        if let Some((a, b)) = label.tick(&l) {
            svg.line(a, b, 2.0, "text_dim", "");
        }
        let _ = write!(svg.out, "<text x=\"");
        num(&mut svg.out, label.at.0);
        svg.out.push_str("\" y=\"");
        num(&mut svg.out, label.at.1);
        svg.out.push_str("\" class=\"f-text-dim\" font-size=\"");
        num(&mut svg.out, label.letter_size());
        let _ = write!(
            svg.out,
            "\">{}<tspan class=\"b\" font-size=\"",
            label.line.letter()
        );
        num(&mut svg.out, label.size);
        let _ = write!(
            svg.out,
            "\" dx=\"1\">{}</tspan></text>",
            label.line.number()
        );
    }
    // The last move under the stacks: new tiles outlined, the dance's path and ghost.
    if let Some(LastMove::Expand { cells }) = &view.last {
        for (i, h) in cells.iter().enumerate() {
            let (cx, cy) = l.centre(*h);
            let pts: Vec<(f32, f32)> = hexagon(r - line * 2.5)
                .into_iter()
                .map(|(x, y)| (cx + x, cy + y))
                .collect();
            let w = if i == 0 { r * 0.13 } else { r * 0.09 };
            let mut a = String::from("class=\"s-contrast\" stroke-opacity=\".78\" stroke-linejoin=\"round\" stroke-width=\"");
            num(&mut a, w + 3.0);
            a.push('"');
            svg.polygon(&pts, &a);
            let mut b = String::from("class=\"s-last\" stroke-linejoin=\"round\" stroke-width=\"");
            num(&mut b, w);
            b.push('"');
            svg.polygon(&pts, &b);
        }
    }
    if let Some(LastMove::Dance { from, landings }) = &view.last {
        if let Some(end) = landings.last() {
            let a = l.base(*from);
            let b = l.base(*end);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (b.0 + ux * l.disc() * 1.05, b.1 + uy * l.disc() * 1.05);
            let w = (r * 0.16).max(3.0);
            svg.arrow(a, tip, w + 4.0, r * 0.5 + 4.0, "contrast");
            svg.arrow(a, tip, w, r * 0.5, "last");
        }
        let ghost = l.disc();
        let mut attrs = String::from("class=\"s-last\" stroke-dasharray=\"");
        num(&mut attrs, std::f32::consts::TAU * ghost / 16.0);
        attrs.push_str("\" stroke-width=\"");
        num(&mut attrs, (r * 0.09).max(2.0));
        attrs.push('"');
        svg.circle(l.base(*from), ghost, &attrs);
    }
    // The name of every nameable cell (when the cells are large enough), on a backing of the
    // cell's own colour.
    for h in tiles.keys().chain(space.iter()) {
        let Some(name) = l.name(*h) else {
            break;
        };
        let (ink, under) = match tiles.get(h) {
            Some(Colour::First) => ("label_on_silver", "silver_tile"),
            Some(Colour::Second) => ("label_on_red", "red_tile"),
            None => ("label_on_space", "space"),
        };
        let b = name.backing;
        svg.rect(
            (b.0, b.1, b.2 - b.0, b.3 - b.1),
            3.0,
            &format!("class=\"f-{}\" fill-opacity=\".86\"", cls(under)),
        );
        svg.text(
            (name.x, name.baseline),
            name.size,
            &format!("class=\"f-{}\"", cls(ink)),
            "middle",
            &name.text,
        );
    }
    // Stacks, back rows first so lifted discs overlap correctly.
    let mut stacks: Vec<&(Hex, Vec<Colour>)> = view.stacks.iter().collect();
    stacks.sort_by_key(|(h, _)| (h.r, h.q));
    for (h, discs) in stacks {
        exxit_stack(&mut svg, &l, *h, discs);
    }
    let height = |h: Hex| {
        view.stacks
            .iter()
            .find(|s| s.0 == h)
            .map_or(1, |s| s.1.len())
    };
    let ring = |svg: &mut Svg, h: Hex, w: f32| {
        let c = l.top_face(h, height(h));
        let radius = l.ring_radius(w);
        svg.ring(c, radius, w + 3.0, "contrast", 200);
        svg.ring(c, radius, w, "last", 255);
    };
    match &view.last {
        Some(LastMove::Place(h)) => ring(&mut svg, *h, l.ring_width(true)),
        Some(LastMove::Dance { landings, .. }) => {
            for h in landings {
                ring(&mut svg, *h, l.ring_width(false));
            }
        }
        _ => {}
    }
    svg.targets(targets, |h| l.centre(h), |h| h.to_string());
    svg.finish()
}
