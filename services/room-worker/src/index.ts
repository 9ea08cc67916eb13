export { startRoomWorker, type RoomWorker, type RoomWorkerDeps, type DrainReport } from './worker.ts';
export { chatBudgetOptions, workerConfig, workerOptionTables, type WorkerConfig } from './config.ts';
export type { Room, RoomData, SeatMeta, ViewerMeta, StepRec } from './room.ts';
export { roomFromStore, type StoredState } from './stored-room.ts';
