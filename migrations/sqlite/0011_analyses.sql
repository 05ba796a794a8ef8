-- Computer analyses of finished games (`/analysis`), kept so that asking again is instant: one row
-- per game, budget (playouts or positions searched per position) and seed. `analysis` is the
-- JSON of `hexcord::analysis::Analysis`.
CREATE TABLE analyses (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    budget      INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    analysis    TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, budget, seed)
);
