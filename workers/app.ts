import { Hono } from "hono";
import { createRequestHandler } from "react-router";

export { GameRoom } from "./game-room/game-room";
export { AdminHub } from "./admin-hub/admin-hub";

const handleRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

const app = new Hono<{ Bindings: Env }>();
app.get("/api/config", (c) => c.json({ title: "Flagstaff" }));
app.all("*", (c) => handleRequest(c.req.raw));

export default app satisfies ExportedHandler<Env>;
