-- Session facts now keep the checks each acceptance failed when it was folded (acceptanceProblems,
-- docs/rules.md#acceptance-checks), which views folded before had no way to record. Views are
-- derived data: this empties every view and checkpoint, and the next catch-up rebuilds them.
DELETE FROM teamlog.projection_checkpoints;
DELETE FROM teamlog.projection_sessions;
DELETE FROM teamlog.projection_teams;
DELETE FROM teamlog.projection_team_members;
DELETE FROM teamlog.projection_team_tasks;
DELETE FROM teamlog.projection_team_messages;
DELETE FROM teamlog.projection_team_records;
DELETE FROM teamlog.projection_team_mismatches;
DELETE FROM teamlog.projection_inbox_entries;
DELETE FROM teamlog.projection_inbox_lists;
DELETE FROM teamlog.projection_held_messages;
