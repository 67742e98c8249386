// The one line for a PostgreSQL database that cannot be used. The CLI's tests (cli/db-cli.test.ts)
// produce a missing database, a closed port and an unknown role against the real server; a wrong
// password cannot be produced there (the test server trusts every local connection and never asks
// for one), so its line is checked here from the error pg raises for the server's answer: a
// DatabaseError with SQLSTATE 28P01, as pg-protocol builds it from the ErrorResponse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { describePgConnectError, pgTarget } from './pg-connect-error.ts';

function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.severity = 'FATAL';
  error.code = code;
  return error;
}

const target = pgTarget('postgres://gateway:s3cret@db.internal:6543/staygate');

describe('describePgConnectError', () => {
  it('reads the target as pg does, without the password', () => {
    assert.deepEqual(target, { host: 'db.internal', port: 6543, database: 'staygate', user: 'gateway' });
  });

  it('a wrong password (28P01): check the password; never prints it', () => {
    const line = describePgConnectError(serverError('28P01', 'password authentication failed for user "gateway"'), target);
    assert.equal(
      line,
      'the PostgreSQL server at db.internal:6543 refused the password of user "gateway" (database "staygate"): check the password in DATABASE_URL',
    );
  });

  it('a server that asks for a password DATABASE_URL lacks: add it', () => {
    // What pg throws itself for a SCRAM request without a password.
    const line = describePgConnectError(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'), target);
    assert.match(line ?? '', /asks user "gateway" \(database "staygate"\) for a password and DATABASE_URL has none/);
  });

  it('a name whose every address refused (an AggregateError without a message) names the addresses', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const error = Object.assign(new AggregateError([refused('::1:6543'), refused('127.0.0.1:6543')], ''), { code: 'ECONNREFUSED' });
    assert.equal(
      describePgConnectError(error, target),
      'no PostgreSQL server answered at db.internal:6543 for database "staygate" (connect ECONNREFUSED ::1:6543; connect ECONNREFUSED 127.0.0.1:6543): ' +
        'check the host and port in DATABASE_URL, and that the server is running and reachable from here',
    );
  });

  it('anything else is not a connection failure: null, the caller lets it through', () => {
    assert.equal(describePgConnectError(serverError('42P01', 'relation "keys" does not exist'), target), null);
    assert.equal(describePgConnectError(new Error('boom'), target), null);
  });
});
