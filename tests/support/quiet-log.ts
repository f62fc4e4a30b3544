// Tests run thousands of requests: the shop's request log stays quiet unless LOG_LEVEL asks for it.
// Tests that read the log set a level and capture it themselves.
import { setLogLevel } from '../../api/lib/log'

if (!process.env.LOG_LEVEL) setLogLevel('silent')
