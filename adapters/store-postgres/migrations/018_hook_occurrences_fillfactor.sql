-- A live step rewrites the occurrence row of every hook it reaches (migration 016). With room left on
-- each page, the new row version goes beside the old one without a new primary key entry (a HOT
-- update), and the old one is pruned on the page: half of each page is kept for that.
ALTER TABLE hook_occurrences SET (fillfactor = 50);
