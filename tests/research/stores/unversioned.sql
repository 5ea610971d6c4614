BEGIN TRANSACTION;
CREATE TABLE basins (
    rules TEXT NOT NULL,
    cycle TEXT NOT NULL,
    budget INTEGER NOT NULL,
    explored INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    exhausted INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    closest_split TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (rules, cycle)
);
INSERT INTO "basins" VALUES('standard','--J-/------K---------Q-Q-K---Q-KAQJ--------A-KAAJ--J-',1000,1000,4,0,1,'26/26',0.5);
CREATE TABLE campaigns (
    id TEXT PRIMARY KEY,
    args TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    scored INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0
);
INSERT INTO "campaigns" VALUES('e8f8d213c1fc8249','{"rules": "standard", "seed": 0, "strategy": "random", "target": "cards", "walkers": 1}',1.79629833792054390906e+09,1.79629833792081642154e+09,1000000,1.5);
INSERT INTO "campaigns" VALUES('9ab29c44ca8d3755','{"band": "kind", "basin_positions": 5000, "kind": "factory", "rules": "half-deck:pay=J1Q2", "seed": 0, "walkers": 1}',1.79629833792093181613e+09,1.79629833792123889922e+09,195896,5.2);
CREATE TABLE census_cycles (
    deck TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    PRIMARY KEY (deck, deal)
);
INSERT INTO "census_cycles" VALUES('standard[5,2,1,0,0]','--J-/Q-J-',8,4,16,1,2,4,4,4);
CREATE TABLE census_instances (
    deck TEXT NOT NULL,
    period INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    status TEXT NOT NULL,
    seconds REAL NOT NULL,
    time_limit REAL,
    positions INTEGER NOT NULL,
    PRIMARY KEY (deck, period, k1, n1)
);
INSERT INTO "census_instances" VALUES('standard[5,2,1,0,0]',16,4,4,'sat',0.21,NULL,2);
INSERT INTO "census_instances" VALUES('standard[5,2,1,0,0]',16,4,5,'unsat',0.05,60.0,0);
CREATE TABLE cycle_deals (
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cycle TEXT NOT NULL,
    pre_period_tricks INTEGER NOT NULL,
    pre_period_cards INTEGER NOT NULL,
    PRIMARY KEY (rules, deal)
);
INSERT INTO "cycle_deals" VALUES('standard','---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA','--J-/------K---------Q-Q-K---Q-KAQJ--------A-KAAJ--J-',4,34);
CREATE TABLE cycles (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    composition TEXT NOT NULL,
    full INTEGER NOT NULL,
    met INTEGER NOT NULL,
    move TEXT NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    UNIQUE (rules, deal)
);
INSERT INTO "cycles" VALUES(1,'half-deck:pay=J1Q2','----J-/Q---Q--',13,2,9,0,3,6,'-10 J1 Q2',0,6,'harvest','9ab29c44ca8d3755',1796297990.0);
CREATE TABLE factory_moves (
    campaign TEXT NOT NULL,
    move TEXT NOT NULL,
    tries INTEGER NOT NULL,
    kept INTEGER NOT NULL,
    added INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (campaign, move)
);
INSERT INTO "factory_moves" VALUES('9ab29c44ca8d3755','one',10805,1428,1428,0.17);
INSERT INTO "factory_moves" VALUES('9ab29c44ca8d3755','swap',7992,13,13,0.1);
CREATE TABLE finds (
    id INTEGER PRIMARY KEY,
    deal TEXT NOT NULL,
    rules TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    status TEXT NOT NULL,
    winner INTEGER,
    strategy TEXT NOT NULL,
    seed INTEGER NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    lead INTEGER NOT NULL DEFAULT 0,
    UNIQUE (deal, rules)
);
INSERT INTO "finds" VALUES(1,'-K-----AK-A--Q--K--A---QQ-/-----JJQ---JJ-------K----A','standard',2930,401,'finished',0,'random',0,'e8f8d213c1fc8249',1796297920.0,0);
CREATE TABLE walkers (
    campaign TEXT NOT NULL REFERENCES campaigns(id),
    walker INTEGER NOT NULL,
    unit INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (campaign, walker)
);
INSERT INTO "walkers" VALUES('e8f8d213c1fc8249',0,1,'{"best": 2930}');
INSERT INTO "walkers" VALUES('9ab29c44ca8d3755',0,1,'{"best": 13}');
CREATE INDEX finds_by_cards ON finds (rules, cards DESC);
CREATE INDEX finds_by_tricks ON finds (rules, tricks DESC);
CREATE INDEX cycles_by_size ON cycles (rules, full, cards DESC);
COMMIT;
