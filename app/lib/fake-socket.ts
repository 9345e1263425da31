/**
 * A stand-in for the browser's WebSocket in unit tests of the socket clients (realtime.ts and its users):
 * the test plays the server (`serverOpen`, `serverSend`, `serverDrop`) and reads what the client sent.
 * Install with `vi.stubGlobal("WebSocket", FakeSocket)`; `instances` lists every socket opened since reset.
 */
export class FakeSocket extends EventTarget {
  static OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  /** The code of the client's close(), undefined for a close without one, null while not closed by it. */
  closedWith: number | null | undefined = null;
  constructor(readonly url: string) {
    super();
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.dispatchEvent(new Event("close"));
  }
  serverOpen() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  /** A frame from the server: a string as is, anything else as JSON. */
  serverSend(data: string | object) {
    this.dispatchEvent(new MessageEvent("message", { data: typeof data === "string" ? data : JSON.stringify(data) }));
  }
  serverDrop() {
    this.readyState = 3;
    this.dispatchEvent(new Event("close"));
  }
  /** The server closes the socket with a code (a CloseEvent's `code`). */
  serverClose(code: number) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code }));
  }
}
