import sys

from compaction.cli.main import main

sys.exit(main())
