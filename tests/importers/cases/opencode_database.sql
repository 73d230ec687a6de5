-- An OpenCode 1.x database (~/.local/share/opencode/opencode.db) written by hand from the layout of real
-- ones: the session, message and part tables as OpenCode's migrations create them (columns this reader
-- does not use left out), two sessions of one project, message and part data as JSON without their ids.
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text, `slug` text NOT NULL,
  `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `cost` real DEFAULT 0 NOT NULL, `tokens_input` integer DEFAULT 0 NOT NULL);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
INSERT INTO session VALUES ('ses_12be9f828ffeaiYkWjPssYhKmB', 'b8946d214b02', NULL, 'curious-forest', '/workspace',
  'Build a portfolio page', '1.17.3', 1781676000000, 1781676400000, 0.05, 40000);
INSERT INTO session VALUES ('ses_1279fce82ffeZOJhNwml1w1Fu4', 'b8946d214b02', NULL, 'quiet-river', '/workspace',
  'Serve it with Flask', '1.17.3', 1781677000000, 1781677100000, 0.02, 9000);
INSERT INTO message VALUES ('msg_ed42e2962001BAN4Y9fKme4zKo', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000100, 1781676000100,
  '{"role":"user","time":{"created":1781676000100},"agent":"build","model":{"providerID":"moonshotai","modelID":"kimi-k2.6"}}');
INSERT INTO message VALUES ('msg_ed42e9b8b001Uewd4yIHwz1Rjj', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000200, 1781676030000,
  '{"parentID":"msg_ed42e2962001BAN4Y9fKme4zKo","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/workspace","root":"/workspace"},"cost":0.0419,"tokens":{"total":22547,"input":13953,"output":8594,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"kimi-k2.6","providerID":"moonshotai","time":{"created":1781676000200,"completed":1781676030000},"finish":"tool-calls"}');
INSERT INTO message VALUES ('msg_ed42ea37f001bP3r4fHUtQALGe', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676030100, 1781676040000,
  '{"parentID":"msg_ed42e2962001BAN4Y9fKme4zKo","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/workspace","root":"/workspace"},"cost":0.0081,"tokens":{"total":22726,"input":120,"output":38,"reasoning":0,"cache":{"write":0,"read":22568}},"modelID":"kimi-k2.6","providerID":"moonshotai","time":{"created":1781676030100,"completed":1781676040000},"finish":"stop"}');
INSERT INTO message VALUES ('msg_ee0000001001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677000100, 1781677000100,
  '{"role":"user","time":{"created":1781677000100},"agent":"build","model":{"providerID":"moonshotai","modelID":"kimi-k2.6"}}');
INSERT INTO message VALUES ('msg_ee0000002001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677000200, 1781677010000,
  '{"parentID":"msg_ee0000001001AAAAAAAAAAAAAA","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/workspace","root":"/workspace"},"cost":0.02,"tokens":{"total":9050,"input":8900,"output":150,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"kimi-k2.6","providerID":"moonshotai","time":{"created":1781677000200,"completed":1781677010000},"finish":"stop"}');
INSERT INTO part VALUES ('prt_ed42e2962002AAAAAAAAAAAAAA', 'msg_ed42e2962001BAN4Y9fKme4zKo', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000100, 1781676000100,
  '{"type":"text","text":"make me a one-page portfolio site"}');
INSERT INTO part VALUES ('prt_ed42e9b8b002AAAAAAAAAAAAAA', 'msg_ed42e9b8b001Uewd4yIHwz1Rjj', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000300, 1781676000300,
  '{"type":"step-start"}');
INSERT INTO part VALUES ('prt_ed42e9b8b003AAAAAAAAAAAAAA', 'msg_ed42e9b8b001Uewd4yIHwz1Rjj', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000400, 1781676000400,
  '{"type":"reasoning","text":"A single index.html is enough.","time":{"start":1781676000400,"end":1781676000500}}');
INSERT INTO part VALUES ('prt_ed42e9b8b004AAAAAAAAAAAAAA', 'msg_ed42e9b8b001Uewd4yIHwz1Rjj', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676000600, 1781676029000,
  '{"type":"tool","tool":"write","callID":"functions.write:0","state":{"status":"completed","input":{"filePath":"/workspace/index.html","content":"<h1>Portfolio</h1>"},"output":"Wrote file successfully.","title":"index.html","metadata":{},"time":{"start":1781676028000,"end":1781676029000}}}');
INSERT INTO part VALUES ('prt_ed42e9b8b005AAAAAAAAAAAAAA', 'msg_ed42e9b8b001Uewd4yIHwz1Rjj', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676029900, 1781676029900,
  '{"reason":"tool-calls","type":"step-finish","tokens":{"total":22547,"input":13953,"output":8594,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0.0419}');
INSERT INTO part VALUES ('prt_ed42ea37f002AAAAAAAAAAAAAA', 'msg_ed42ea37f001bP3r4fHUtQALGe', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676030200, 1781676030200,
  '{"type":"step-start"}');
INSERT INTO part VALUES ('prt_ed42ea37f003AAAAAAAAAAAAAA', 'msg_ed42ea37f001bP3r4fHUtQALGe', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676030300, 1781676039000,
  '{"type":"text","text":"The page is in index.html.","time":{"start":1781676030300,"end":1781676039000}}');
INSERT INTO part VALUES ('prt_ed42ea37f004AAAAAAAAAAAAAA', 'msg_ed42ea37f001bP3r4fHUtQALGe', 'ses_12be9f828ffeaiYkWjPssYhKmB', 1781676039900, 1781676039900,
  '{"reason":"stop","type":"step-finish","tokens":{"total":22726,"input":120,"output":38,"reasoning":0,"cache":{"write":0,"read":22568}},"cost":0.0081}');
INSERT INTO part VALUES ('prt_ee0000001002AAAAAAAAAAAAAA', 'msg_ee0000001001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677000100, 1781677000100,
  '{"type":"text","text":"serve the page with flask"}');
INSERT INTO part VALUES ('prt_ee0000002002AAAAAAAAAAAAAA', 'msg_ee0000002001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677000300, 1781677000300,
  '{"type":"step-start"}');
INSERT INTO part VALUES ('prt_ee0000002003AAAAAAAAAAAAAA', 'msg_ee0000002001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677000400, 1781677009000,
  '{"type":"text","text":"Run: flask --app app run"}');
INSERT INTO part VALUES ('prt_ee0000002004AAAAAAAAAAAAAA', 'msg_ee0000002001AAAAAAAAAAAAAA', 'ses_1279fce82ffeZOJhNwml1w1Fu4', 1781677009900, 1781677009900,
  '{"reason":"stop","type":"step-finish","tokens":{"total":9050,"input":8900,"output":150,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0.02}');
