/**
 * Frames are built by string concatenation around JSON.stringify of the parts
 * that differ per viewer: the presence list and the result are encoded once
 * per transition and spliced into every viewer's frame, the spectator frame
 * once for all spectators. The output is exactly a `view` ServerMessage.
 */
import { PROTOCOL_VERSION } from '@joke/protocol';

export function viewFrame(
  roomIdJson: string,
  seq: number,
  role: 'player' | 'spectator',
  view: unknown,
  events: unknown[],
  presenceJson: string,
  resultJson: string | null,
): string {
  return (
    `{"v":${PROTOCOL_VERSION},"t":"view","roomId":${roomIdJson},"seq":${seq},"role":"${role}","view":` +
    JSON.stringify(view) +
    ',"events":' +
    JSON.stringify(events) +
    ',"presence":' +
    presenceJson +
    (resultJson === null ? '}' : `,"result":${resultJson}}`)
  );
}

export function presenceFrame(roomIdJson: string, presenceJson: string): string {
  return `{"v":${PROTOCOL_VERSION},"t":"presence","roomId":${roomIdJson},"presence":${presenceJson}}`;
}
