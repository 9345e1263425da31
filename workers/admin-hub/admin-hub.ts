import type { Channel } from "~/core/protocol";
import { SocketHub } from "../shared/socket-hub";

/** The single admin hub (named `admin`): streams new log records to admins on channel `admin`. */
export class AdminHub extends SocketHub {
  protected allowedChannels: readonly Channel[] = ["admin"];
}
