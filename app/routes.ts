import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

// Paths match case-insensitively (React Router's default), so /Account/Login works as spec §2 writes it.
export default [
  index("routes/home.tsx"),
  ...prefix("account", [
    route("login", "routes/account/login.tsx"),
    route("register", "routes/account/register.tsx"),
    route("profile", "routes/account/profile.tsx"),
    route("recovery", "routes/account/recovery.tsx"),
    route("reset", "routes/account/reset.tsx"),
    route("verify", "routes/account/verify.tsx"),
    route("confirm", "routes/account/confirm.tsx"),
  ]),
  route("teams", "routes/teams.tsx"),
  ...prefix("games", [index("routes/games/index.tsx"), route(":id", "routes/games/detail.tsx"), route(":id/challenges", "routes/games/challenges.tsx"), route(":id/scoreboard", "routes/games/scoreboard.tsx"), route(":id/monitor/events", "routes/games/monitor-events.tsx"), route(":id/monitor/submissions", "routes/games/monitor-submissions.tsx"), route(":id/monitor/cheatinfo", "routes/games/monitor-cheatinfo.tsx"), route(":id/monitor/traffic", "routes/games/monitor-traffic.tsx")]),
  route("about", "routes/about.tsx"),
  ...prefix("posts", [
    index("routes/posts/index.tsx"),
    route(":postId", "routes/posts/detail.tsx"),
    route(":postId/edit", "routes/posts/edit.tsx"),
  ]),
  layout("routes/admin/layout.tsx", [
    ...prefix("admin", [
      route("teams", "routes/admin/teams.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("logs", "routes/admin/logs.tsx"),
      route("instances", "routes/admin/instances.tsx"),
      route("games", "routes/admin/games/index.tsx"),
      route("games/:id", "routes/admin/game-layout.tsx", [
        index("routes/admin/games/redirect.tsx"),
        route("info", "routes/admin/games/info.tsx"),
        route("notices", "routes/admin/games/notices.tsx"),
        route("review", "routes/admin/games/review.tsx"),
        route("challenges", "routes/admin/games/challenges.tsx"),
        route("challenges/:chalId", "routes/admin/games/challenge-edit.tsx"),
        route("challenges/:chalId/flags", "routes/admin/games/challenge-flags.tsx"),
        route("writeups", "routes/admin/games/writeups.tsx"),
      ]),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
