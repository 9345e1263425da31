import { redirect } from "react-router";
import type { Route } from "./+types/redirect";

/** /admin/games/{id} opens the Info tab. */
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/admin/games/${params.id}/info`);
}
