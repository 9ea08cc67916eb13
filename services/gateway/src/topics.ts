/** The uWS topic the spectator frames of a room go to: one publish reaches all its spectators here. */
export const spectatorTopic = (roomId: string): string => `s:${roomId}`;
