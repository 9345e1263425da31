import type { Channel } from "~/core/protocol";
import { SocketHub } from "../shared/socket-hub";

/**
 * One per game (named `game:{id}`): the single judge of the game's submissions and the holder of its live
 * scoreboard. Players subscribe on channel `game`, monitors on `monitor`.
 */
export class GameRoom extends SocketHub {
  protected allowedChannels: readonly Channel[] = ["game", "monitor"];
}
