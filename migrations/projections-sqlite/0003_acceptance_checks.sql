-- Session facts now keep the checks each acceptance failed when it was folded (acceptanceProblems,
-- docs/rules.md#acceptance-checks), which views folded before had no way to record. Views are
-- derived data: this empties every view and checkpoint, and the next catch-up rebuilds them.
DELETE FROM projection_checkpoints;
DELETE FROM projection_sessions;
DELETE FROM projection_teams;
DELETE FROM projection_team_members;
DELETE FROM projection_team_tasks;
DELETE FROM projection_team_messages;
DELETE FROM projection_team_records;
DELETE FROM projection_team_mismatches;
DELETE FROM projection_inbox_entries;
DELETE FROM projection_inbox_lists;
DELETE FROM projection_held_messages;
