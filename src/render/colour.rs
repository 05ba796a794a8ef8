//! Colours as the pictures use them: 8-bit RGB with a straight alpha.

/// A colour with alpha (straight, not premultiplied).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rgb8A {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

/// An opaque colour from `0xRRGGBB`.
pub const fn hex(c: u32) -> Rgb8A {
    Rgb8A {
        r: (c >> 16) as u8,
        g: (c >> 8) as u8,
        b: c as u8,
        a: 255,
    }
}
