import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";

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
  route("admin/teams", "routes/admin/teams.tsx"),
  route("admin/users", "routes/admin/users.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
