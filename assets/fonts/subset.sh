#!/bin/sh
# Rebuilds the Japanese picture fonts from Debian's fonts-noto-cjk (Noto Sans CJK JP, SIL Open
# Font License 1.1, see OFL.txt) as subsets: ASCII and Latin-1, the non-kanji rows of JIS X 0208
# (symbols, full-width letters and digits, kana, Greek, Cyrillic), half-width katakana, the JIS
# level 1 kanji (2,965) and every character of the Japanese .ftl files.
#   apt-get install -y fonts-noto-cjk && pip install fonttools && sh assets/fonts/subset.sh
set -e
cd "$(dirname "$0")"
python3 - > chars.txt <<'PY'
import glob
cs = {chr(c) for c in range(0x20, 0x7f)} | {chr(c) for c in range(0xa0, 0x100)}
cs |= {chr(c) for c in range(0xff61, 0xffa0)}
for row in list(range(1, 9)) + list(range(16, 48)):
    for cell in range(1, 95):
        try:
            cs.add(bytes([0xa0 + row, 0xa0 + cell]).decode("euc_jp"))
        except UnicodeDecodeError:
            pass
for f in glob.glob("../locales/ja/*.ftl"):
    cs |= set(open(f, encoding="utf-8").read())
print("".join(sorted(c for c in cs if c.isprintable())))
PY
for w in Regular Bold; do
  pyftsubset /usr/share/fonts/opentype/noto/NotoSansCJK-$w.ttc --font-number=0 \
    --text-file=chars.txt --layout-features='' --no-hinting --name-IDs='*' \
    --output-file=NotoSansCJKjp-$w-subset.otf
done
rm chars.txt
