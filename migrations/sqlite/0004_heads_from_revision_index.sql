-- A stream's head is the last entry of the (stream_name, revision) index, one seek away, so the
-- streams table (a third B-tree written on every append) is dropped: an append writes the event
-- row and its two unique indexes, nothing else.
DROP TABLE streams;
