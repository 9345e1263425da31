import { relations } from "drizzle-orm";
import { challenges, divisionChallengeConfigs, flags } from "./challenges";
import { containers, trafficCaptures } from "./containers";
import { gameEvents, gameNotices, posts, writeups } from "./content";
import { attachments, files } from "./files";
import { divisions, games } from "./games";
import { gameInstances } from "./instances";
import { participationMembers, participations } from "./participations";
import { cheatInfos, firstSolves, submissions } from "./submissions";
import { teamMembers, teams } from "./teams";
import { sessions, users } from "./users";

// Relations for drizzle's relational query API (db.query.x.findMany({ with: … })). Kept in one file so that
// the table modules import each other in one direction only.

export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(sessions),
  teamMemberships: many(teamMembers),
  participationMemberships: many(participationMembers),
  posts: many(posts),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
}));

export const teamsRelations = relations(teams, ({ one, many }) => ({
  captain: one(users, { fields: [teams.captainId], references: [users.id] }),
  members: many(teamMembers),
  participations: many(participations),
}));

export const teamMembersRelations = relations(teamMembers, ({ one }) => ({
  team: one(teams, { fields: [teamMembers.teamId], references: [teams.id] }),
  user: one(users, { fields: [teamMembers.userId], references: [users.id] }),
}));

export const filesRelations = relations(files, ({ many }) => ({
  attachments: many(attachments),
}));

export const attachmentsRelations = relations(attachments, ({ one }) => ({
  file: one(files, { fields: [attachments.fileHash], references: [files.hash] }),
}));

export const gamesRelations = relations(games, ({ many }) => ({
  divisions: many(divisions),
  challenges: many(challenges),
  participations: many(participations),
  notices: many(gameNotices),
  events: many(gameEvents),
  submissions: many(submissions),
}));

export const divisionsRelations = relations(divisions, ({ one, many }) => ({
  game: one(games, { fields: [divisions.gameId], references: [games.id] }),
  challengeConfigs: many(divisionChallengeConfigs),
  participations: many(participations),
}));

export const challengesRelations = relations(challenges, ({ one, many }) => ({
  game: one(games, { fields: [challenges.gameId], references: [games.id] }),
  attachment: one(attachments, { fields: [challenges.attachmentId], references: [attachments.id] }),
  flags: many(flags),
  divisionConfigs: many(divisionChallengeConfigs),
  instances: many(gameInstances),
  containers: many(containers),
}));

export const divisionChallengeConfigsRelations = relations(divisionChallengeConfigs, ({ one }) => ({
  division: one(divisions, { fields: [divisionChallengeConfigs.divisionId], references: [divisions.id] }),
  challenge: one(challenges, { fields: [divisionChallengeConfigs.challengeId], references: [challenges.id] }),
}));

export const flagsRelations = relations(flags, ({ one }) => ({
  challenge: one(challenges, { fields: [flags.challengeId], references: [challenges.id] }),
  attachment: one(attachments, { fields: [flags.attachmentId], references: [attachments.id] }),
}));

export const participationsRelations = relations(participations, ({ one, many }) => ({
  game: one(games, { fields: [participations.gameId], references: [games.id] }),
  team: one(teams, { fields: [participations.teamId], references: [teams.id] }),
  division: one(divisions, { fields: [participations.divisionId], references: [divisions.id] }),
  members: many(participationMembers),
  instances: many(gameInstances),
  submissions: many(submissions),
  firstSolves: many(firstSolves),
  writeup: one(writeups, { fields: [participations.id], references: [writeups.participationId] }),
}));

export const participationMembersRelations = relations(participationMembers, ({ one }) => ({
  participation: one(participations, {
    fields: [participationMembers.participationId],
    references: [participations.id],
  }),
  user: one(users, { fields: [participationMembers.userId], references: [users.id] }),
}));

export const gameInstancesRelations = relations(gameInstances, ({ one, many }) => ({
  participation: one(participations, { fields: [gameInstances.participationId], references: [participations.id] }),
  challenge: one(challenges, { fields: [gameInstances.challengeId], references: [challenges.id] }),
  assignedFlag: one(flags, { fields: [gameInstances.flagId], references: [flags.id] }),
  containers: many(containers),
}));

export const containersRelations = relations(containers, ({ one, many }) => ({
  challenge: one(challenges, { fields: [containers.challengeId], references: [challenges.id] }),
  instance: one(gameInstances, { fields: [containers.instanceId], references: [gameInstances.id] }),
  participation: one(participations, { fields: [containers.participationId], references: [participations.id] }),
  user: one(users, { fields: [containers.userId], references: [users.id] }),
  captures: many(trafficCaptures),
}));

export const trafficCapturesRelations = relations(trafficCaptures, ({ one }) => ({
  challenge: one(challenges, { fields: [trafficCaptures.challengeId], references: [challenges.id] }),
  participation: one(participations, { fields: [trafficCaptures.participationId], references: [participations.id] }),
  container: one(containers, { fields: [trafficCaptures.containerId], references: [containers.id] }),
}));

export const submissionsRelations = relations(submissions, ({ one }) => ({
  game: one(games, { fields: [submissions.gameId], references: [games.id] }),
  challenge: one(challenges, { fields: [submissions.challengeId], references: [challenges.id] }),
  participation: one(participations, { fields: [submissions.participationId], references: [participations.id] }),
  user: one(users, { fields: [submissions.userId], references: [users.id] }),
}));

export const firstSolvesRelations = relations(firstSolves, ({ one }) => ({
  participation: one(participations, { fields: [firstSolves.participationId], references: [participations.id] }),
  challenge: one(challenges, { fields: [firstSolves.challengeId], references: [challenges.id] }),
  submission: one(submissions, { fields: [firstSolves.submissionId], references: [submissions.id] }),
  user: one(users, { fields: [firstSolves.userId], references: [users.id] }),
}));

export const cheatInfosRelations = relations(cheatInfos, ({ one }) => ({
  game: one(games, { fields: [cheatInfos.gameId], references: [games.id] }),
  ownedParticipation: one(participations, {
    fields: [cheatInfos.ownedParticipationId],
    references: [participations.id],
    relationName: "cheatOwned",
  }),
  submitParticipation: one(participations, {
    fields: [cheatInfos.submitParticipationId],
    references: [participations.id],
    relationName: "cheatSubmit",
  }),
  submission: one(submissions, { fields: [cheatInfos.submissionId], references: [submissions.id] }),
}));

export const postsRelations = relations(posts, ({ one }) => ({
  author: one(users, { fields: [posts.authorId], references: [users.id] }),
}));

export const gameNoticesRelations = relations(gameNotices, ({ one }) => ({
  game: one(games, { fields: [gameNotices.gameId], references: [games.id] }),
}));

export const gameEventsRelations = relations(gameEvents, ({ one }) => ({
  game: one(games, { fields: [gameEvents.gameId], references: [games.id] }),
  user: one(users, { fields: [gameEvents.userId], references: [users.id] }),
  team: one(teams, { fields: [gameEvents.teamId], references: [teams.id] }),
}));

export const writeupsRelations = relations(writeups, ({ one }) => ({
  participation: one(participations, { fields: [writeups.participationId], references: [participations.id] }),
  file: one(files, { fields: [writeups.fileHash], references: [files.hash] }),
}));
