-- Computer analyses of finished games (`/analysis`), kept so that asking again is instant: one row
-- per game, budget (playouts or positions searched per position) and seed. `analysis` is the
-- JSON of `hexcord::analysis::Analysis`.
CREATE TABLE analyses (
    game_id     BIGINT NOT NULL REFERENCES games(id),
    budget      BIGINT NOT NULL,
    seed        BIGINT NOT NULL,
    analysis    TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, budget, seed)
);
