import { connect } from 'node:net';

/** Whether something accepts connections on 127.0.0.1:PORT (a forward is up, or gone once this says false). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
