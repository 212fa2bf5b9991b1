BEGIN {
	for (i = 0; i < 30000; i++) {
		v = (i * 7919) % 100003
		n = "\"n" (i % 3) "\""
		if (i % 1000 == 999)
			print "{\"name\":" n ",\"cat\":\"c\",\"dur_ns\":12x}"
		else if (i % 15 == 5)
			print "{\"name\":" n ",\"dur_ns\":" v \
			    ",\"args\":{\"a\":[1, 2]}}"
		else if (i % 5 == 0)
			print "{ \"dur_ns\" : " v " , \"name\":" n " }"
		else if (i % 7 == 3)
			print "{\"name\":" n ",\"cat\":\"c\",\"dur_ns\":-" v "}"
		else if (i % 11 == 4 && i % 3 == 1)
			print "{\"name\":" n ",\"cat\":\"c\",\"dur_ns\":" v ".5}"
		else if (i % 13 == 6)
			print "{\"name\":\"n\\u003" (i % 3) "\",\"cat\":\"c\"," \
			    "\"dur_ns\":" v "}"
		else
			print "{\"name\":" n ",\"cat\":\"c\",\"dur_ns\":" v "}"
	}
}
